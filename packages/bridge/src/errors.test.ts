import type { Ranker, ToolDefinition } from '@tool-search/core';
import { describe, expect, it } from 'vitest';
import { assembleTools } from './assemble.js';
import { batchErrors } from './batch-limits.js';
import type { BridgeErrorResult } from './bridge-results.js';
import { BRIDGE_ERROR_CODES, isBridgeErrorCode } from './errors.js';
import { handleBridgeCall } from './handle.js';
import { bridgeErrors, resolveUnderlyingCall } from './resolve.js';

const tools: ToolDefinition[] = [
  {
    name: 'bash',
    description: 'Run a shell command',
    inputSchema: { type: 'object', properties: { command: { type: 'string' } } },
    source: 'core',
  },
  {
    name: 'tickets_create',
    description: 'Create a ticket',
    inputSchema: {
      type: 'object',
      properties: { title: { type: 'string' }, priority: { enum: ['low', 'high'] } },
      required: ['title'],
    },
    source: 'mcp',
    toolset: 'mcp-tickets',
  },
  {
    name: 'tickets_close',
    description: 'Close a ticket',
    inputSchema: { type: 'object', properties: { id: { type: 'string' } } },
    source: 'mcp',
    toolset: 'mcp-tickets',
  },
];

const config = { enabled: 'on' } as const;
const fresh = () => assembleTools({ tools, config });
// `tickets_close` was in the session's previous assembly and is gone now.
const later = () =>
  assembleTools({
    tools: tools.filter((tool) => tool.name !== 'tickets_close'),
    config,
    previous: fresh(),
  });
const broken: Ranker = {
  specificationVersion: 'v1',
  id: 'broken',
  index: () => ({
    search: () => {
      throw new Error('index exploded');
    },
  }),
};
const throwing = () => {
  throw new Error('boom');
};
const ok = () => ({ ok: true });

const search = (args: unknown) => ({ name: 'tool_search', arguments: args });
const describeCall = (args: unknown) => ({ name: 'tool_describe', arguments: args });
const call = (args: unknown) => ({ name: 'tool_call', arguments: args });
const many = (count: number, item: (index: number) => unknown) =>
  Array.from({ length: count }, (_, index) => item(index));

// Every refusal the bridge answers, each with the exact text the model reads and its code.
const PATHS: {
  path: string;
  answer: () => Promise<unknown> | undefined;
  error: string | RegExp;
  code: string;
}[] = [
  {
    path: 'tool_search without a query',
    answer: () => handleBridgeCall(fresh(), search({}), ok),
    error: 'query is required',
    code: 'query_required',
  },
  {
    path: 'tool_search whose ranker throws',
    answer: () =>
      handleBridgeCall(
        assembleTools({ tools, config, ranker: broken }),
        search({ query: 'x' }),
        ok,
      ),
    error:
      /^tool_search failed: .*index exploded\. Try again with other words, or call tool_describe with an exact tool name\.$/,
    code: 'search_failed',
  },
  {
    path: 'tool_search with six queries',
    answer: () => handleBridgeCall(fresh(), search({ queries: many(6, (i) => `q${i}`) }), ok),
    error: batchErrors.tooManyQueries(6),
    code: 'too_many_queries',
  },
  {
    path: 'tool_search with queries that are not a list',
    answer: () => handleBridgeCall(fresh(), search({ queries: 42 }), ok),
    error: "tool_search 'queries' must be an array of strings.",
    code: 'queries_not_list',
  },
  {
    path: 'tool_search select: with no name',
    answer: () => handleBridgeCall(fresh(), search({ query: 'select:' }), ok),
    error: batchErrors.selectEmpty,
    code: 'select_empty',
  },
  {
    path: 'tool_search select: of eleven names',
    answer: () =>
      handleBridgeCall(fresh(), search({ query: `select:${many(11, (i) => `t${i}`)}` }), ok),
    error: batchErrors.tooManySelected(11),
    code: 'too_many_selected',
  },
  {
    path: 'tool_search past the cap of the session',
    answer: async () => {
      const capped = assembleTools({
        tools,
        config: { ...config, runaway: { max_searches: 1 } },
      });
      await handleBridgeCall(capped, search({ query: 'ticket' }), ok);
      return handleBridgeCall(capped, search({ query: 'close' }), ok);
    },
    error:
      "tool_search refused: this session made 1 searches within 600 seconds. Call one of the tools you found with tool_call, or load tools by their exact names with tool_search query 'select:name_a,name_b'.",
    code: 'search_limit',
  },
  {
    path: 'tool_describe without a name',
    answer: () => handleBridgeCall(fresh(), describeCall({}), ok),
    error: 'name is required',
    code: 'name_required',
  },
  {
    path: 'tool_describe of a visible tool',
    answer: () => handleBridgeCall(fresh(), describeCall({ name: 'bash' }), ok),
    error:
      "'bash' is not a deferrable tool. If you see it in the tools list already, call it directly; otherwise check the spelling against tool_search.",
    code: 'not_deferrable',
  },
  {
    path: 'tool_describe of a tool gone since the previous assembly',
    answer: () => handleBridgeCall(later(), describeCall({ name: 'tickets_close' }), ok),
    error: "'tickets_close' is not currently available. Re-run tool_search to refresh.",
    code: 'not_currently_available',
  },
  {
    path: 'tool_describe of a name outside the session',
    answer: () => handleBridgeCall(fresh(), describeCall({ name: 'jira_create' }), ok),
    error:
      "'jira_create' is not available in this session. Use tool_search to find tools you can call.",
    code: 'not_in_session',
  },
  {
    path: 'tool_describe with eleven names',
    answer: () => handleBridgeCall(fresh(), describeCall({ names: many(11, (i) => `t${i}`) }), ok),
    error: batchErrors.tooManyNames(11),
    code: 'too_many_names',
  },
  {
    path: 'tool_describe with names that are not a list',
    answer: () => handleBridgeCall(fresh(), describeCall({ names: 42 }), ok),
    error: "tool_describe 'names' must be an array of strings.",
    code: 'names_not_list',
  },
  {
    path: 'tool_call without a name',
    answer: () => handleBridgeCall(fresh(), call({ arguments: {} }), ok),
    error: "tool_call requires a 'name' argument",
    code: 'name_required',
  },
  {
    path: 'tool_call of a bridge tool',
    answer: () => handleBridgeCall(fresh(), call({ name: 'tool_search', arguments: {} }), ok),
    error: "tool_call cannot invoke 'tool_search' (it is itself a bridge tool)",
    code: 'bridge_tool',
  },
  {
    path: 'tool_call with arguments that are not JSON',
    answer: () => handleBridgeCall(fresh(), call({ name: 'tickets_close', arguments: '{' }), ok),
    error: /^tool_call 'arguments' is not valid JSON: .+/,
    code: 'invalid_json',
  },
  {
    path: 'tool_call with arguments that are not an object',
    answer: () => handleBridgeCall(fresh(), call({ name: 'tickets_close', arguments: '[1]' }), ok),
    error: "tool_call 'arguments' must be an object",
    code: 'arguments_not_object',
  },
  {
    path: 'tool_call with outer arguments that are not an object',
    answer: () => handleBridgeCall(fresh(), call(42), ok),
    error: "tool_call 'arguments' must be an object",
    code: 'arguments_not_object',
  },
  {
    path: 'tool_call missing a required argument',
    answer: () => handleBridgeCall(fresh(), call({ name: 'tickets_create', arguments: {} }), ok),
    error: bridgeErrors.missingRequired('tickets_create', ['title']),
    code: 'missing_arguments',
  },
  {
    path: 'tool_call whose arguments break the schema',
    answer: () =>
      handleBridgeCall(
        fresh(),
        call({ name: 'tickets_create', arguments: { title: 'x', priority: 'urgent' } }),
        ok,
      ),
    error: /^'tickets_create' was not invoked: its arguments do not match its schema: /,
    code: 'invalid_arguments',
  },
  {
    path: 'tool_call with eleven calls',
    answer: () =>
      handleBridgeCall(fresh(), call({ calls: many(11, () => ({ name: 'tickets_close' })) }), ok),
    error: batchErrors.tooManyCalls(11),
    code: 'too_many_calls',
  },
  {
    path: 'tool_call with calls that are not a list',
    answer: () => handleBridgeCall(fresh(), call({ calls: 42 }), ok),
    error: batchErrors.callsNotList,
    code: 'calls_not_list',
  },
  {
    path: 'tool_call with no calls',
    answer: () => handleBridgeCall(fresh(), call({ calls: [] }), ok),
    error: batchErrors.callsEmpty,
    code: 'calls_empty',
  },
  {
    path: 'tool_call with calls beside a name',
    answer: () =>
      handleBridgeCall(fresh(), call({ name: 'tickets_close', calls: [{ name: 'x' }] }), ok),
    error: batchErrors.callsAndName,
    code: 'calls_and_name',
  },
  {
    path: 'a direct call of a tool gone since the previous assembly',
    answer: () => handleBridgeCall(later(), { name: 'tickets_close', arguments: {} }, ok),
    error: "'tickets_close' is not currently available. Re-run tool_search to refresh.",
    code: 'not_currently_available',
  },
  {
    path: 'a direct call of an unknown name, refused',
    answer: () =>
      handleBridgeCall(fresh(), { name: 'jira_create', arguments: {} }, ok, {
        refuseUnknownNames: true,
      }),
    error:
      "'jira_create' is not available in this session. Use tool_search to find tools you can call.",
    code: 'not_in_session',
  },
];

// Refusals that answer one item of a batch, or one name of a select:.
async function batchItem(answer: Promise<unknown> | undefined, index = 0): Promise<unknown> {
  return ((await answer) as { results: unknown[] }).results[index];
}

describe('the error codes of the bridge', () => {
  it.each(PATHS)('answers $path with its text and the code $code', async (path) => {
    const answer = (await path.answer()) as BridgeErrorResult;
    expect(answer).toMatchObject({ error: path.error, code: path.code });
    expect(isBridgeErrorCode(answer.code)).toBe(true);
    // The code comes right after the text the model reads.
    expect(Object.keys(answer).slice(0, 2)).toEqual(['error', 'code']);
  });

  it('answers a batch call whose dispatch throws with call_failed, on that item only', async () => {
    const answer = handleBridgeCall(
      fresh(),
      call({ calls: [{ name: 'tickets_close' }] }),
      throwing,
    );
    expect(await batchItem(answer)).toEqual({
      error: 'Call 1 of the batch failed: boom. The other calls were answered on their own.',
      code: 'call_failed',
    });
  });

  it('gives each not_found name of a select: the code of its text', async () => {
    const answer = (await handleBridgeCall(
      later(),
      search({ query: 'select:bash,tickets_close,jira_create' }),
      ok,
    )) as { not_found: { name: string; error: string; code: string }[] };
    expect(answer.not_found.map((miss) => [miss.name, miss.code])).toEqual([
      ['bash', 'not_deferrable'],
      ['tickets_close', 'not_currently_available'],
      ['jira_create', 'not_in_session'],
    ]);
  });

  it('gives a refused resolveUnderlyingCall the same code as the answer to the model', async () => {
    const resolved = resolveUnderlyingCall(fresh(), call({ name: 'tool_call' }));
    expect(resolved).toMatchObject({ ok: false, code: 'bridge_tool' });
  });

  it('reaches every listed code: the list holds no code the bridge never answers', async () => {
    const seen = new Set(PATHS.map((path) => path.code));
    seen.add('call_failed');
    expect([...BRIDGE_ERROR_CODES].filter((code) => !seen.has(code))).toEqual([]);
    expect(new Set(BRIDGE_ERROR_CODES).size).toBe(BRIDGE_ERROR_CODES.length);
  });
});
