import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { createToolRuntime, sessionTools } from './__fixtures__/tools.js';
import type { AnthropicRequestTool } from './anthropic.js';
import { answerAnthropicToolSearch, prepareAnthropicTools } from './anthropic.js';
import type { PreparedTools } from './plan.js';
import { type StandIn, startAnthropicStandIn } from './testing/index.js';

let standIn: StandIn | undefined;
afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
});

// One user turn of a real agent loop: the model's tool calls are answered until it replies.
async function runLoop(
  client: Anthropic,
  prepared: PreparedTools<AnthropicRequestTool>,
  runtime: ReturnType<typeof createToolRuntime>,
) {
  const messages: Anthropic.MessageParam[] = [
    { role: 'user', content: 'File an issue about the failing login on acme/app.' },
  ];
  for (let turn = 0; turn < 6; turn += 1) {
    const message = await client.messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      tools: prepared.tools,
      messages,
    });
    messages.push({ role: 'assistant', content: message.content });
    if (message.stop_reason !== 'tool_use') {
      return message.content
        .flatMap((block) => (block.type === 'text' ? [block.text] : []))
        .join('');
    }
    const results: Anthropic.ToolResultBlockParam[] = [];
    for (const block of message.content) {
      if (block.type !== 'tool_use') continue;
      if (block.name === prepared.searchToolName) {
        results.push(await answerAnthropicToolSearch(prepared, block));
        continue;
      }
      const name = prepared.names.fromProvider(block.name) ?? block.name;
      const outcome = await runtime.dispatch({
        id: block.id,
        name,
        arguments: block.input as Record<string, unknown>,
      });
      results.push({
        type: 'tool_result',
        tool_use_id: block.id,
        content: JSON.stringify(outcome),
      });
    }
    messages.push({ role: 'user', content: results });
  }
  throw new Error('the loop did not end');
}

describe('prepareAnthropicTools with the real Anthropic client', () => {
  it('client mode: our search loads the tool, the model calls it by name, the hooks see its real name', async () => {
    const prepared = await prepareAnthropicTools(sessionTools, {
      mode: 'client',
      config: { enabled: 'on' },
    });
    expect(prepared.mode).toBe('client');
    const providerName = prepared.names.toProvider('github.create_issue');
    expect(providerName).toBe('github_create_issue');
    standIn = await startAnthropicStandIn({
      steps: [
        { search: 'create an issue on github' },
        { call: providerName, input: { repo: 'acme/app', title: 'Login fails' } },
        { reply: 'Filed:' },
      ],
    });
    const runtime = createToolRuntime();
    const client = new Anthropic({ baseURL: standIn.url, apiKey: 'test', maxRetries: 0 });
    const text = await runLoop(client, prepared, runtime);

    expect(standIn.violations).toEqual([]);
    expect(runtime.seen.hook).toEqual(['github.create_issue']);
    expect(runtime.seen.guardrail).toEqual(['github.create_issue']);
    expect(runtime.issues).toEqual([{ number: 1, repo: 'acme/app', title: 'Login fails' }]);
    expect(text).toContain('"title":"Login fails"');
    const first = standIn.requests[0] as { tools: { name: string; defer_loading?: boolean }[] };
    expect(
      first.tools.filter((tool) => tool.defer_loading !== true).map((tool) => tool.name),
    ).toEqual(['read_file', 'tool_search']);
    const second = standIn.requests[1] as { messages: { content: unknown }[] };
    expect(JSON.stringify(second.messages.at(-1))).toContain(
      '"type":"tool_reference","tool_name":"github_create_issue"',
    );
  });

  it("hosted mode: Anthropic's search tool loads the tool and the same dispatcher runs it", async () => {
    const prepared = await prepareAnthropicTools(sessionTools, {
      mode: 'hosted',
      hosted: 'regex',
      config: { enabled: 'on' },
    });
    expect(prepared.mode).toBe('hosted');
    expect(prepared.searchToolName).toBeUndefined();
    standIn = await startAnthropicStandIn({
      steps: [
        { search: 'slack message' },
        { call: 'slack_post_message', input: { channel: '#ops', text: 'Login fails' } },
        { reply: 'Posted:' },
      ],
    });
    const runtime = createToolRuntime();
    const client = new Anthropic({ baseURL: standIn.url, apiKey: 'test', maxRetries: 0 });
    const text = await runLoop(client, prepared, runtime);

    expect(standIn.violations).toEqual([]);
    expect(runtime.seen.hook).toEqual(['slack_post_message']);
    expect(text).toContain('"channel":"#ops"');
    const first = standIn.requests[0] as { tools: { name: string; type?: string }[] };
    expect(first.tools.at(-1)).toEqual({
      type: 'tool_search_tool_regex_20251119',
      name: 'tool_search_tool_regex',
    });
  });

  it('a call of a tool the search never loaded is refused by the stand-in, as by the API', async () => {
    const prepared = await prepareAnthropicTools(sessionTools, {
      mode: 'client',
      config: { enabled: 'on' },
    });
    standIn = await startAnthropicStandIn({
      steps: [{ call: 'slack_post_message', input: { channel: '#ops', text: 'hi' } }],
    });
    const client = new Anthropic({ baseURL: standIn.url, apiKey: 'test', maxRetries: 0 });
    await expect(runLoop(client, prepared, createToolRuntime())).rejects.toThrow(/not loaded/);
    expect(standIn.violations).toEqual([
      "the model called 'slack_post_message', which is not loaded",
    ]);
  });
});
