import Anthropic from '@anthropic-ai/sdk';
import { assembleTools, handleBridgeCall } from '@tool-search/bridge';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { createToolRuntime, sessionTools } from './__fixtures__/tools.js';
import {
  answerAnthropicToolSearch,
  checkAnthropicRequest,
  prepareAnthropicTools,
  toAnthropicToolResult,
  toolCallFromAnthropic,
} from './anthropic.js';
import {
  answerOpenAIToolSearch,
  prepareOpenAIResponsesTools,
  toOpenAIFunctionOutput,
  toolCallFromOpenAI,
} from './openai.js';
import type { ScriptedStep } from './testing/index.js';
import { type StandIn, startAnthropicStandIn, startOpenAIStandIn } from './testing/index.js';

let standIn: StandIn | undefined;
afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
});

const TURNS = 10;
const modes = ['client', 'hosted', 'bridge', 'off'] as const;
const silent = { warn: () => {} };

// The first turn searches and calls a tool; the next nine only talk.
function stepsFor(mode: (typeof modes)[number]): ScriptedStep[] {
  const input = { channel: '#ops', text: 'hi' };
  const first: ScriptedStep[] =
    mode === 'bridge'
      ? [
          { call: 'tool_search', input: { query: 'post a slack message' } },
          { call: 'tool_call', input: { name: 'slack_post_message', arguments: input } },
        ]
      : mode === 'off'
        ? [{ call: 'slack_post_message', input }]
        : [{ search: 'post a slack message' }, { call: 'slack_post_message', input }];
  return [...first, ...Array.from({ length: TURNS }, (_, turn) => ({ reply: `turn ${turn}` }))];
}

function options(mode: (typeof modes)[number]) {
  return mode === 'off'
    ? { config: { enabled: 'off' } }
    : { mode, config: { enabled: 'on' }, bridge: assembleTools, logger: silent };
}

function toolSections(requests: readonly unknown[]): string[] {
  return requests.map((body) => JSON.stringify((body as { tools: unknown }).tools));
}

describe('the tools section of every request', () => {
  it.each(modes)(
    'is byte-identical over %s-mode Anthropic turns, and the cache breakpoint is never on a deferred tool',
    async (mode) => {
      standIn = await startAnthropicStandIn({ steps: stepsFor(mode) });
      const client = new Anthropic({ baseURL: standIn.url, apiKey: 'test', maxRetries: 0 });
      const runtime = createToolRuntime();
      const messages: Anthropic.MessageParam[] = [];
      for (let turn = 0; turn < TURNS; turn += 1) {
        // Each turn prepares anew from the app's current (unchanged) tool list.
        const prepared = await prepareAnthropicTools(structuredClone(sessionTools), {
          ...options(mode),
          cacheControl: { type: 'ephemeral' },
        });
        messages.push({ role: 'user', content: `turn ${turn}` });
        for (;;) {
          const message = await client.messages.create({
            model: 'claude-sonnet-4-5',
            max_tokens: 256,
            tools: prepared.tools,
            messages,
          });
          messages.push({ role: 'assistant', content: message.content });
          if (message.stop_reason !== 'tool_use') break;
          const results: Anthropic.ToolResultBlockParam[] = [];
          for (const block of message.content) {
            if (block.type !== 'tool_use') continue;
            if (block.name === prepared.searchToolName) {
              results.push(await answerAnthropicToolSearch(prepared, block));
              continue;
            }
            const call = toolCallFromAnthropic(prepared, block);
            const outcome = await (prepared.bridge
              ? (handleBridgeCall(prepared.bridge, call, (real, ctx) =>
                  runtime.dispatch(real, ctx),
                ) ?? runtime.dispatch(call))
              : runtime.dispatch(call));
            results.push(toAnthropicToolResult(block.id, outcome));
          }
          messages.push({ role: 'user', content: results });
        }
      }
      expect(standIn.violations).toEqual([]);
      expect(runtime.seen.executed.map((call) => call.name)).toEqual(['slack_post_message']);
      const sections = toolSections(standIn.requests);
      expect(sections.length).toBeGreaterThanOrEqual(TURNS);
      expect(new Set(sections).size).toBe(1);
      const tools = JSON.parse(sections[0]!) as {
        defer_loading?: boolean;
        cache_control?: unknown;
      }[];
      const marked = tools.flatMap((tool, index) => (tool.cache_control ? [index] : []));
      let lastLoaded = tools.length - 1;
      while (tools[lastLoaded]?.defer_loading === true) lastLoaded -= 1;
      expect(marked).toEqual([lastLoaded]);
    },
  );

  it.each(modes)('is byte-identical over %s-mode OpenAI turns', async (mode) => {
    standIn = await startOpenAIStandIn({ steps: stepsFor(mode) });
    const client = new OpenAI({ baseURL: `${standIn.url}/v1`, apiKey: 'test', maxRetries: 0 });
    const runtime = createToolRuntime();
    const input: OpenAI.Responses.ResponseInputItem[] = [];
    for (let turn = 0; turn < TURNS; turn += 1) {
      const prepared = await prepareOpenAIResponsesTools(structuredClone(sessionTools), {
        ...options(mode),
        strict: true,
      });
      input.push({ role: 'user', content: `turn ${turn}` });
      for (let more = true; more; ) {
        const response = await client.responses.create({
          model: 'gpt-5.5',
          input,
          tools: prepared.tools,
        });
        // Every output item is valid input: the whole output goes back, as the API expects.
        input.push(...(response.output as OpenAI.Responses.ResponseInputItem[]));
        more = false;
        for (const item of response.output) {
          if (item.type === 'tool_search_call' && item.execution === 'client') {
            input.push(await answerOpenAIToolSearch(prepared, item));
            more = true;
          } else if (item.type === 'function_call') {
            const call = toolCallFromOpenAI(prepared, item);
            const outcome = await (prepared.bridge
              ? (handleBridgeCall(prepared.bridge, call, (real, ctx) =>
                  runtime.dispatch(real, ctx),
                ) ?? runtime.dispatch(call))
              : runtime.dispatch(call));
            input.push(toOpenAIFunctionOutput(item.call_id, outcome));
            more = true;
          }
        }
      }
    }
    expect(standIn.violations).toEqual([]);
    expect(runtime.seen.executed.map((call) => call.name)).toEqual(['slack_post_message']);
    const sections = toolSections(standIn.requests);
    expect(sections.length).toBeGreaterThanOrEqual(TURNS);
    expect(new Set(sections).size).toBe(1);
  });
});

describe('cache_control on a deferred tool', () => {
  it('is refused by checkAnthropicRequest and by the stand-in, as by the API', async () => {
    const prepared = await prepareAnthropicTools(sessionTools, {
      mode: 'client',
      config: { enabled: 'on' },
    });
    const broken = prepared.tools.map((tool) =>
      'defer_loading' in tool && tool.defer_loading
        ? { ...tool, cache_control: { type: 'ephemeral' as const } }
        : tool,
    );
    expect(() => checkAnthropicRequest({ tools: broken })).toThrow(
      /deferred and carries cache_control/,
    );
    standIn = await startAnthropicStandIn({ steps: [{ reply: 'hi' }] });
    const client = new Anthropic({ baseURL: standIn.url, apiKey: 'test', maxRetries: 0 });
    await expect(
      client.messages.create({
        model: 'claude-sonnet-4-5',
        max_tokens: 16,
        tools: broken,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    ).rejects.toThrow(/cannot carry cache_control/);
  });
});
