import Anthropic from '@anthropic-ai/sdk';
import { assembleTools, handleBridgeCall } from '@tool-search/bridge';
import type { ToolDefinition } from '@tool-search/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createToolRuntime, sessionTools } from './__fixtures__/tools.js';
import {
  ANTHROPIC_TOOL_CHANGE_BETAS,
  answerAnthropicToolSearch,
  createAnthropicToolLog,
  dispatchAnthropicToolUse,
  prepareAnthropicTools,
  toAnthropicToolResult,
  toolCallFromAnthropic,
  toolSearchErrorFromAnthropic,
} from './anthropic.js';
import { type StandIn, startAnthropicStandIn } from './testing/index.js';

let standIn: StandIn | undefined;
afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
});

// A server that connects mid-conversation brings a tool the first request never sent.
const ticket: ToolDefinition = {
  name: 'jira.create_ticket',
  description: 'Create a Jira ticket.',
  inputSchema: {
    type: 'object',
    properties: { summary: { type: 'string' } },
    required: ['summary'],
  },
  source: 'mcp',
};

const thinking = { type: 'enabled' as const, budget_tokens: 1024 };

describe('Anthropic with thinking on (preserved-thinking prefix checks)', () => {
  it('loads tools append-only: search, call, then a tool added in messages; every thinking block kept', async () => {
    const prepared = await prepareAnthropicTools(sessionTools, {
      model: 'claude-sonnet-5-5',
      config: { enabled: 'on' },
    });
    expect(prepared.mode).toBe('client');
    const log = createAnthropicToolLog(prepared);
    standIn = await startAnthropicStandIn({
      steps: [
        { search: 'create an issue on github' },
        { call: 'github_create_issue', input: { repo: 'acme/app', title: 'Login fails' } },
        { call: 'jira_create_ticket', input: { summary: 'Login fails' } },
        { reply: 'Filed:' },
      ],
    });
    const runtime = createToolRuntime();
    const client = new Anthropic({ baseURL: standIn.url, apiKey: 'test', maxRetries: 0 });
    const messages: Anthropic.Beta.BetaMessageParam[] = [
      { role: 'user', content: 'File the login bug everywhere.' },
    ];
    let text = '';
    let tools: readonly ToolDefinition[] = sessionTools;
    for (let turn = 0; turn < 6 && text === ''; turn += 1) {
      const message = await client.beta.messages.create({
        model: 'claude-sonnet-5-5',
        max_tokens: 4096,
        thinking,
        betas: [...ANTHROPIC_TOOL_CHANGE_BETAS],
        tools: prepared.tools,
        messages,
      });
      messages.push({
        role: 'assistant',
        content: message.content as Anthropic.Beta.BetaContentBlockParam[],
      });
      if (message.stop_reason !== 'tool_use') {
        text = message.content
          .flatMap((block) => (block.type === 'text' ? [block.text] : []))
          .join('');
        break;
      }
      const content: Anthropic.Beta.BetaContentBlockParam[] = [];
      for (const block of message.content) {
        if (block.type !== 'tool_use') continue;
        if (block.name === prepared.searchToolName)
          content.push(await answerAnthropicToolSearch(prepared, block));
        else {
          const name = log.fromProvider(block.name) ?? block.name;
          content.push(
            await dispatchAnthropicToolUse(prepared, { ...block, name }, runtime.dispatch),
          );
        }
      }
      // After the issue is filed, the Jira server connects: the session's tools grow.
      if (runtime.issues.length > 0) tools = [...sessionTools, ticket];
      content.push(...log.changes(tools));
      messages.push({ role: 'user', content });
    }
    expect(standIn.violations).toEqual([]);
    expect(text).toContain('Filed:');
    expect(runtime.seen.hook).toEqual(['github.create_issue', 'jira.create_ticket']);
    const bodies = standIn.requests as { tools: unknown; messages: { content: unknown }[] }[];
    // The same tools in every request, and every earlier thinking block sent back as it was.
    expect(new Set(bodies.map((body) => JSON.stringify(body.tools))).size).toBe(1);
    expect(JSON.stringify(bodies.at(-1)!.messages).match(/"type":"thinking"/g)).toHaveLength(3);
    expect(JSON.stringify(bodies[2]!.messages.at(-1))).toContain('"type":"tool_addition"');
    expect(log.changes(tools)).toEqual([]);
  });

  it('bridge mode keeps the tools fixed too: search, describe and call with thinking on', async () => {
    const prepared = await prepareAnthropicTools(sessionTools, {
      model: 'claude-3-5-haiku-latest',
      config: { enabled: 'on' },
      bridge: assembleTools,
    });
    expect(prepared.mode).toBe('bridge');
    standIn = await startAnthropicStandIn({
      steps: [
        { call: 'tool_search', input: { query: 'post a slack message' } },
        { call: 'tool_describe', input: { name: 'slack_post_message' } },
        {
          call: 'tool_call',
          input: { name: 'slack_post_message', arguments: { channel: '#ops', text: 'hi' } },
        },
        { reply: 'Posted:' },
      ],
    });
    const runtime = createToolRuntime();
    const client = new Anthropic({ baseURL: standIn.url, apiKey: 'test', maxRetries: 0 });
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Say hi in #ops.' }];
    for (let turn = 0; turn < 6; turn += 1) {
      const message = await client.messages.create({
        model: 'claude-3-5-haiku-latest',
        max_tokens: 4096,
        thinking,
        tools: prepared.tools,
        messages,
      });
      messages.push({ role: 'assistant', content: message.content });
      if (message.stop_reason !== 'tool_use') break;
      const results: Anthropic.ToolResultBlockParam[] = [];
      for (const block of message.content) {
        if (block.type !== 'tool_use') continue;
        const call = toolCallFromAnthropic(prepared, block);
        const outcome = await (handleBridgeCall(prepared.bridge!, call, (real, ctx) =>
          runtime.dispatch(real, ctx),
        ) ?? runtime.dispatch(call));
        results.push(toAnthropicToolResult(block.id, outcome));
      }
      messages.push({ role: 'user', content: results });
    }
    expect(standIn.violations).toEqual([]);
    expect(runtime.seen.hook).toEqual(['slack_post_message']);
    expect(JSON.stringify(messages.at(-1))).toContain('Posted:');
  });

  it('removes a tool that left the session and adds it back by reference, the API refusing a call meanwhile', async () => {
    const prepared = await prepareAnthropicTools(sessionTools, { config: { enabled: 'off' } });
    const log = createAnthropicToolLog(prepared);
    const without = sessionTools.filter((tool) => tool.name !== 'read_file');
    const removal = log.changes(without);
    expect(removal).toEqual([
      { type: 'tool_removal', tool: { type: 'tool_reference', name: 'read_file' } },
    ]);
    const back = log.changes(sessionTools);
    expect(back).toEqual([
      { type: 'tool_addition', tool: { type: 'tool_reference', name: 'read_file' } },
    ]);
    standIn = await startAnthropicStandIn({
      steps: [
        { call: 'read_file', input: { path: 'a' } },
        { call: 'read_file', input: { path: 'b' } },
      ],
    });
    const client = new Anthropic({ baseURL: standIn.url, apiKey: 'test', maxRetries: 0 });
    const send = (content: Anthropic.Beta.BetaContentBlockParam[]) =>
      client.beta.messages.create({
        model: 'claude-sonnet-5-5',
        max_tokens: 1024,
        thinking,
        betas: [...ANTHROPIC_TOOL_CHANGE_BETAS],
        tools: prepared.tools,
        messages: [{ role: 'user', content }],
      });
    // Removed, the tool cannot be called; added back by reference, it can.
    await expect(send([...removal, { type: 'text', text: 'read a' }])).rejects.toThrow(
      /not loaded/,
    );
    const message = await send([...removal, ...back, { type: 'text', text: 'read b' }]);
    expect(
      message.content.some((block) => block.type === 'tool_use' && block.name === 'read_file'),
    ).toBe(true);
  });

  it('refuses a request whose tools changed after a thinking block, as the API does', async () => {
    standIn = await startAnthropicStandIn({
      steps: [{ call: 'read_file', input: { path: 'a' } }, { reply: 'done' }],
    });
    const client = new Anthropic({ baseURL: standIn.url, apiKey: 'test', maxRetries: 0 });
    const first = await prepareAnthropicTools(sessionTools, { config: { enabled: 'off' } });
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Read a.' }];
    const message = await client.messages.create({
      model: 'claude-sonnet-5-5',
      max_tokens: 4096,
      thinking,
      tools: first.tools,
      messages,
    });
    const use = message.content.find((block) => block.type === 'tool_use')!;
    messages.push(
      { role: 'assistant', content: message.content },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'a' }] },
    );
    // Prepared anew with one more tool: the tools array changes under the thinking block.
    const second = await prepareAnthropicTools([...sessionTools, ticket], {
      config: { enabled: 'off' },
    });
    await expect(
      client.messages.create({
        model: 'claude-sonnet-5-5',
        max_tokens: 4096,
        thinking,
        tools: second.tools,
        messages,
      }),
    ).rejects.toThrow(/tools changed after this thinking block/);
  });

  it("maps Anthropic's tool_name_conflict and tool_reference_unresolved to our codes", async () => {
    standIn = await startAnthropicStandIn({ steps: [{ reply: 'ok' }, { reply: 'ok' }] });
    const client = new Anthropic({ baseURL: standIn.url, apiKey: 'test', maxRetries: 0 });
    const prepared = await prepareAnthropicTools(sessionTools, { config: { enabled: 'off' } });
    const send = (tool: Anthropic.Beta.BetaRequestToolAdditionBlock['tool']) =>
      client.beta.messages.create({
        model: 'claude-sonnet-5-5',
        max_tokens: 1024,
        betas: [...ANTHROPIC_TOOL_CHANGE_BETAS],
        tools: prepared.tools,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'tool_addition', tool },
              { type: 'text', text: 'hi' },
            ],
          },
        ],
      });
    const conflict = await send({
      type: 'tool_definition',
      definition: { name: 'read_file', input_schema: { type: 'object' } },
    }).catch((error: unknown) => error);
    expect(toolSearchErrorFromAnthropic(conflict)?.code).toBe('duplicate_tool_name');
    const unresolved = await send({ type: 'tool_reference', name: 'nowhere' }).catch(
      (error: unknown) => error,
    );
    expect(toolSearchErrorFromAnthropic(unresolved)?.code).toBe('unknown_tool');
    expect(toolSearchErrorFromAnthropic(new Error('other'))).toBeUndefined();
  });

  it('refuses the sampling parameters API version 2026-10-21 removed', async () => {
    standIn = await startAnthropicStandIn({ steps: [{ reply: 'ok' }] });
    const client = new Anthropic({ baseURL: standIn.url, apiKey: 'test', maxRetries: 0 });
    await expect(
      client.messages.create({
        model: 'claude-sonnet-5-5',
        max_tokens: 16,
        messages: [{ role: 'user', content: 'hi' }],
        temperature: 0.2,
      } as Anthropic.MessageCreateParamsNonStreaming),
    ).rejects.toThrow(/temperature: removed/);
  });
});
