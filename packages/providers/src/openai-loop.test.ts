import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { createToolRuntime, sessionTools } from './__fixtures__/tools.js';
import {
  answerOpenAIToolSearch,
  type OpenAIRequestTool,
  prepareOpenAIResponsesTools,
} from './openai.js';
import type { PreparedTools } from './plan.js';
import { restoreStrictArguments } from './strict-schema.js';
import { type StandIn, startOpenAIStandIn } from './testing/index.js';

let standIn: StandIn | undefined;
afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
});

// One user turn of a real Responses loop: tool searches and function calls are answered
// until the model replies.
async function runLoop(
  client: OpenAI,
  prepared: PreparedTools<OpenAIRequestTool>,
  runtime: ReturnType<typeof createToolRuntime>,
) {
  const input: OpenAI.Responses.ResponseInputItem[] = [
    { role: 'user', content: 'File an issue about the failing login on acme/app.' },
  ];
  for (let turn = 0; turn < 6; turn += 1) {
    const response = await client.responses.create({
      model: 'gpt-5.5',
      input,
      tools: prepared.tools,
    });
    let called = false;
    for (const item of response.output) {
      if (item.type === 'tool_search_call' && item.execution === 'client') {
        input.push(item, await answerOpenAIToolSearch(prepared, item));
        called = true;
      } else if (item.type === 'tool_search_call' || item.type === 'tool_search_output') {
        input.push(item);
      } else if (item.type === 'function_call') {
        const name = prepared.names.fromProvider(item.name) ?? item.name;
        const tool = sessionTools.find((candidate) => candidate.name === name);
        const args = JSON.parse(item.arguments) as unknown;
        const restored = tool ? restoreStrictArguments(tool.inputSchema, args) : args;
        const outcome = await runtime.dispatch({
          id: item.call_id,
          name,
          arguments: restored as Record<string, unknown>,
        });
        input.push(item, {
          type: 'function_call_output',
          call_id: item.call_id,
          output: JSON.stringify(outcome),
        });
        called = true;
      }
    }
    if (!called) return response.output_text;
  }
  throw new Error('the loop did not end');
}

describe('prepareOpenAIResponsesTools with the real OpenAI client', () => {
  it('client mode: our tool_search_output loads the function, the model calls it, the hooks see its real name', async () => {
    const prepared = await prepareOpenAIResponsesTools(sessionTools, {
      mode: 'client',
      config: { enabled: 'on' },
    });
    expect(prepared.mode).toBe('client');
    standIn = await startOpenAIStandIn({
      steps: [
        { search: 'create an issue on github' },
        { call: 'github_create_issue', input: { repo: 'acme/app', title: 'Login fails' } },
        { reply: 'Filed:' },
      ],
    });
    const runtime = createToolRuntime();
    const client = new OpenAI({ baseURL: `${standIn.url}/v1`, apiKey: 'test', maxRetries: 0 });
    const text = await runLoop(client, prepared, runtime);

    expect(standIn.violations).toEqual([]);
    expect(runtime.seen.hook).toEqual(['github.create_issue']);
    expect(runtime.issues).toEqual([{ number: 1, repo: 'acme/app', title: 'Login fails' }]);
    expect(text).toContain('"title":"Login fails"');
    const first = standIn.requests[0] as { tools: { type: string; name?: string }[] };
    // The deferred functions are kept back until a search finds them.
    expect(first.tools.map((tool) => tool.name ?? tool.type)).toEqual(['read_file', 'tool_search']);
  });

  it("hosted mode: namespaces per toolset, OpenAI's search loads the function, the dispatcher runs it", async () => {
    const prepared = await prepareOpenAIResponsesTools(sessionTools, {
      mode: 'hosted',
      config: { enabled: 'on' },
      namespaceDescriptions: { 'mcp-slack': 'Slack: post and read channel messages.' },
    });
    expect(prepared.mode).toBe('hosted');
    const namespaces = prepared.tools.filter((tool) => tool.type === 'namespace');
    expect(namespaces.map((tool) => [tool.name, tool.description])).toEqual([
      ['mcp-github', 'Tools of mcp-github: github.create_issue, github_list_pull_requests.'],
      ['mcp-slack', 'Slack: post and read channel messages.'],
    ]);
    for (const namespace of namespaces) {
      expect(namespace.tools.every((tool) => tool.defer_loading === true)).toBe(true);
    }
    expect(prepared.tools.at(-1)).toEqual({ type: 'tool_search' });
    standIn = await startOpenAIStandIn({
      steps: [
        { search: 'post a slack message' },
        { call: 'slack_post_message', input: { channel: '#ops', text: 'Login fails' } },
        { reply: 'Posted:' },
      ],
    });
    const runtime = createToolRuntime();
    const client = new OpenAI({ baseURL: `${standIn.url}/v1`, apiKey: 'test', maxRetries: 0 });
    const text = await runLoop(client, prepared, runtime);

    expect(standIn.violations).toEqual([]);
    expect(runtime.seen.hook).toEqual(['slack_post_message']);
    expect(text).toContain('"channel":"#ops"');
  });

  it('strict client mode: every function is strict, optional arguments come back as null and are dropped', async () => {
    const prepared = await prepareOpenAIResponsesTools(sessionTools, {
      mode: 'client',
      strict: true,
      config: { enabled: 'on' },
    });
    standIn = await startOpenAIStandIn({
      steps: [
        { search: 'create an issue on github' },
        {
          call: 'github_create_issue',
          input: { repo: 'acme/app', title: 'Login fails', labels: null },
        },
        { reply: 'Filed:' },
      ],
    });
    const runtime = createToolRuntime();
    const client = new OpenAI({ baseURL: `${standIn.url}/v1`, apiKey: 'test', maxRetries: 0 });
    await runLoop(client, prepared, runtime);

    expect(standIn.violations).toEqual([]);
    expect(runtime.seen.executed).toEqual([
      { name: 'github.create_issue', arguments: { repo: 'acme/app', title: 'Login fails' } },
    ]);
    const second = standIn.requests[1] as {
      input: { type?: string; tools?: { strict: boolean }[] }[];
    };
    const output = second.input.find((item) => item.type === 'tool_search_output');
    expect(output?.tools?.every((tool) => tool.strict === true)).toBe(true);
  });

  it('a strict function whose schema is not strict is refused by the stand-in, as by the API', async () => {
    standIn = await startOpenAIStandIn({ steps: [{ reply: 'hi' }] });
    const client = new OpenAI({ baseURL: `${standIn.url}/v1`, apiKey: 'test', maxRetries: 0 });
    await expect(
      client.responses.create({
        model: 'gpt-5.5',
        input: 'hi',
        tools: [
          {
            type: 'function',
            name: 'loose',
            strict: true,
            parameters: { type: 'object', properties: { q: { type: 'string' } } },
          },
        ],
      }),
    ).rejects.toThrow(/additionalProperties must be false/);
  });
});
