// AI SDK 7's own deferred loading, driven by our activation decision and searched by our
// catalog; and the platform-native route, seen on the wire of the real provider packages
// (@ai-sdk/anthropic, @ai-sdk/openai) against a local HTTP server.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs, toolSearch } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentModel } from './__fixtures__/agent-model.js';
import { catalogToolSet, type Execution } from './__fixtures__/catalog.js';
import { markDeferredTools } from './mark-deferred.js';
import { createToolSearchFunction } from './search-function.js';

const labels = { core: ['read_file'], contextWindow: 200_000 };

describe('markDeferredTools with toolSearch({ search: createToolSearchFunction() }) on ai 7', () => {
  it('defers the MCP tools by the activation decision, never the core tool', async () => {
    const marked = await markDeferredTools(catalogToolSet(), labels);
    expect(marked.decision).toMatchObject({ active: true, reason: 'above-threshold' });
    expect(marked.deferred).toHaveLength(300);
    expect(marked.tools['read_file']).not.toHaveProperty('deferLoading');
    expect(marked.tools['slack_slack_post_message']).toHaveProperty('deferLoading', true);

    const below = await markDeferredTools(catalogToolSet(), {
      ...labels,
      config: { thresholdTokens: 1e9 },
    });
    expect(below.decision).toMatchObject({ active: false, reason: 'below-threshold' });
    expect(below.deferred).toEqual([]);
    expect(below.tools['slack_slack_post_message']).not.toHaveProperty('deferLoading');

    const pinned = await markDeferredTools(catalogToolSet(), {
      ...labels,
      pinned: ['github_create_issue'],
    });
    expect(pinned.tools['github_create_issue']).not.toHaveProperty('deferLoading');
  });

  it('searches with our catalog: the found tool is offered on the next step and runs', async () => {
    const executions: Execution[] = [];
    const searched: string[] = [];
    const marked = await markDeferredTools(catalogToolSet(executions), labels);
    const ours = createToolSearchFunction({ tools: marked.definitions });
    const search = toolSearch({
      search: async (args) => {
        searched.push(args.query);
        return ours(args);
      },
    });
    const agent = createAgentModel({
      query: 'posting messages into slack channels',
      arguments: { channel_id: 'C1', text: 'hi' },
      style: 'direct',
    });
    const result = await generateText({
      model: agent.model,
      tools: { ...marked.tools, search_tools: search },
      stopWhen: stepCountIs(5),
      prompt: 'post to slack',
    });
    expect(searched).toEqual(['posting messages into slack channels']);
    expect(agent.steps[0]?.tools).not.toContain('slack_slack_post_message');
    expect(agent.steps[0]?.tools).toContain('read_file');
    expect(agent.steps[1]?.tools).toContain('slack_slack_post_message');
    expect(executions.map((execution) => execution.name)).toEqual(['slack_slack_post_message']);
    const calls = result.steps.flatMap((step) => step.toolCalls.map((call) => call.toolName));
    expect(calls).toEqual(['search_tools', 'slack_slack_post_message']);
  });

  it('never returns a tool outside the session scope, whatever the AI SDK offers', async () => {
    const marked = await markDeferredTools(catalogToolSet(), labels);
    const offered = marked.definitions.map(({ name, description }) => ({
      name,
      ...(description ? { description } : {}),
    }));
    const scoped = createToolSearchFunction({
      tools: marked.definitions,
      scope: { enabledToolsets: ['mcp-github'] },
    });
    const names = await scoped({ query: 'post a message to a slack channel', tools: offered });
    expect(names.length).toBeGreaterThan(0);
    expect(names.every((name) => name.startsWith('github_'))).toBe(true);
    const open = createToolSearchFunction({ tools: marked.definitions });
    expect((await open({ query: 'post a message to a slack channel', tools: offered }))[0]).toBe(
      'slack_slack_post_message',
    );
  });
});

describe('markDeferredTools: the platform-native route', () => {
  let server: Server;
  let base: string;
  const bodies: Record<string, unknown>[] = [];
  let reply: Record<string, unknown> = {};

  beforeAll(async () => {
    server = createServer((request, response) => {
      let text = '';
      request.on('data', (chunk) => {
        text += chunk;
      });
      request.on('end', () => {
        bodies.push(JSON.parse(text) as Record<string, unknown>);
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(reply));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("sends Anthropic's defer_loading on the deferred tools beside its hosted tool search", async () => {
    reply = {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [{ type: 'text', text: 'ok' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    };
    const anthropic = createAnthropic({ baseURL: base, apiKey: 'test-key' });
    const marked = await markDeferredTools(catalogToolSet(), { ...labels, target: 'anthropic' });
    bodies.length = 0;
    await generateText({
      model: anthropic('claude-sonnet-4-5'),
      tools: { ...marked.tools, tool_search: anthropic.tools.toolSearchBm25_20251119() },
      prompt: 'post to slack',
    });
    const tools = bodies[0]?.['tools'] as Record<string, unknown>[];
    const byName = new Map(tools.map((tool) => [tool['name'], tool]));
    expect(byName.get('slack_slack_post_message')).toMatchObject({ defer_loading: true });
    expect(byName.get('read_file')).not.toHaveProperty('defer_loading');
    expect(tools.filter((tool) => tool['defer_loading'] === true)).toHaveLength(300);
    expect(tools.some((tool) => String(tool['type']).startsWith('tool_search_tool_bm25'))).toBe(
      true,
    );
  });

  it("sends OpenAI's defer_loading on the deferred tools beside its tool search", async () => {
    reply = {
      id: 'resp_1',
      object: 'response',
      created_at: 1,
      status: 'completed',
      model: 'gpt-5',
      output: [
        {
          type: 'message',
          id: 'msg_1',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'ok', annotations: [] }],
        },
      ],
      usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
    };
    const openai = createOpenAI({ baseURL: base, apiKey: 'test-key' });
    const marked = await markDeferredTools(catalogToolSet(), { ...labels, target: 'openai' });
    bodies.length = 0;
    await generateText({
      model: openai.responses('gpt-5'),
      tools: { ...marked.tools, tool_search: openai.tools.toolSearch() },
      prompt: 'post to slack',
    });
    const tools = bodies[0]?.['tools'] as Record<string, unknown>[];
    const byName = new Map(tools.map((tool) => [tool['name'], tool]));
    expect(byName.get('slack_slack_post_message')).toMatchObject({ defer_loading: true });
    expect(byName.get('read_file')).not.toHaveProperty('defer_loading');
    expect(tools.some((tool) => tool['type'] === 'tool_search')).toBe(true);
  });
});
