import Anthropic from '@anthropic-ai/sdk';
import { assembleTools, handleBridgeCall } from '@tool-search/bridge';
import { toAnthropicTool, toOpenAIResponsesTool } from '@tool-search/core';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { createToolRuntime, sessionTools } from './__fixtures__/tools.js';
import { prepareAnthropicTools } from './anthropic.js';
import { prepareOpenAIResponsesTools } from './openai.js';
import { type StandIn, startAnthropicStandIn, startOpenAIStandIn } from './testing/index.js';

let standIn: StandIn | undefined;
afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
});

const steps = [
  { call: 'tool_search', input: { query: 'post a slack message' } },
  {
    call: 'tool_call',
    input: { name: 'slack_post_message', arguments: { channel: '#ops', text: 'hi' } },
  },
  { reply: 'Posted:' },
];
// Slack's tool keeps its name on both platforms, so the bridge needs no name map here.
const tools = sessionTools.filter((tool) => tool.name !== 'github.create_issue');

describe('bridge mode, combined with @tool-search/bridge', () => {
  it('Anthropic: the same decision defers the same tools, and the bridge loop reaches the real tool', async () => {
    const prepared = await prepareAnthropicTools(tools, {
      model: 'claude-3-5-haiku-latest',
      config: { enabled: 'on' },
      bridge: assembleTools,
    });
    expect(prepared.mode).toBe('bridge');
    const assembly = prepared.bridge!;
    expect(assembly.deferred.map((tool) => tool.name)).toEqual(prepared.deferred);
    expect(assembly.decision).toEqual(prepared.decision);
    expect(prepared.tools).toEqual(assembly.tools.map(toAnthropicTool));

    standIn = await startAnthropicStandIn({ steps });
    const runtime = createToolRuntime();
    const client = new Anthropic({ baseURL: standIn.url, apiKey: 'test', maxRetries: 0 });
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Say hi in #ops.' }];
    let text = '';
    for (let turn = 0; turn < 5 && text === ''; turn += 1) {
      const message = await client.messages.create({
        model: 'claude-3-5-haiku-latest',
        max_tokens: 256,
        tools: prepared.tools,
        messages,
      });
      messages.push({ role: 'assistant', content: message.content });
      const results: Anthropic.ToolResultBlockParam[] = [];
      for (const block of message.content) {
        if (block.type === 'text') text = block.text;
        if (block.type !== 'tool_use') continue;
        const call = {
          id: block.id,
          name: block.name,
          arguments: block.input as Record<string, unknown>,
        };
        const outcome = await (handleBridgeCall(assembly, call, (real, ctx) =>
          runtime.dispatch(real, ctx),
        ) ?? runtime.dispatch(call));
        results.push({
          type: 'tool_result',
          tool_use_id: block.id,
          content: JSON.stringify(outcome),
        });
      }
      if (results.length > 0) messages.push({ role: 'user', content: results });
    }
    expect(standIn.violations).toEqual([]);
    expect(runtime.seen.hook).toEqual(['slack_post_message']);
    expect(text).toContain('#ops');
  });

  it('OpenAI: the same decision defers the same tools, and the bridge loop reaches the real tool', async () => {
    const prepared = await prepareOpenAIResponsesTools(tools, {
      model: 'gpt-4.1',
      config: { enabled: 'on' },
      bridge: assembleTools,
    });
    expect(prepared.mode).toBe('bridge');
    const assembly = prepared.bridge!;
    expect(assembly.deferred.map((tool) => tool.name)).toEqual(prepared.deferred);
    expect(prepared.tools).toEqual(assembly.tools.map(toOpenAIResponsesTool));

    standIn = await startOpenAIStandIn({ steps });
    const runtime = createToolRuntime();
    const client = new OpenAI({ baseURL: `${standIn.url}/v1`, apiKey: 'test', maxRetries: 0 });
    const input: OpenAI.Responses.ResponseInputItem[] = [
      { role: 'user', content: 'Say hi in #ops.' },
    ];
    let text = '';
    for (let turn = 0; turn < 5 && text === ''; turn += 1) {
      const response = await client.responses.create({
        model: 'gpt-4.1',
        input,
        tools: prepared.tools,
      });
      text = response.output_text;
      for (const item of response.output) {
        if (item.type !== 'function_call') continue;
        const call = { id: item.call_id, name: item.name, arguments: item.arguments };
        const outcome = await (handleBridgeCall(assembly, call, (real, ctx) =>
          runtime.dispatch(real, ctx),
        ) ?? runtime.dispatch({ ...call, arguments: JSON.parse(item.arguments) }));
        input.push(item, {
          type: 'function_call_output',
          call_id: item.call_id,
          output: JSON.stringify(outcome),
        });
      }
    }
    expect(standIn.violations).toEqual([]);
    expect(runtime.seen.hook).toEqual(['slack_post_message']);
    expect(text).toContain('#ops');
  });
});
