import type { ToolCall } from '@tool-search/core';
import { describe, expect, it, vi } from 'vitest';
import { forcedOn, sessionTools } from './__fixtures__/tools.js';
import { assembleTools } from './assemble.js';
import type { BridgeDispatchContext } from './bridge-results.js';
import { handleBridgeCall } from './handle.js';

const fresh = () => assembleTools({ tools: sessionTools, config: forcedOn });

function recorder() {
  const calls: { call: ToolCall; context: BridgeDispatchContext }[] = [];
  const dispatch = vi.fn((call: ToolCall, context: BridgeDispatchContext) => {
    calls.push({ call, context });
    return { ok: true, ran: call.name, with: call.arguments };
  });
  return { calls, dispatch };
}

const search = (args: unknown) => ({ name: 'tool_search', arguments: args });
const describeCall = (args: unknown) => ({ name: 'tool_describe', arguments: args });
const toolCall = (args: unknown, id?: string) => ({
  ...(id === undefined ? {} : { id }),
  name: 'tool_call',
  arguments: args,
});

const issue = { owner: 'acme', repo: 'web', title: 'Bug' };
const post = { channel_id: 'C1', text: 'hi' };

describe('tool_search with queries', () => {
  it('answers each query as its own group, exactly as the single query would', async () => {
    const assembly = fresh();
    const queries = ['create a github issue', 'post a slack message', 'asdf qwerty'];
    const answer = await handleBridgeCall(
      assembly,
      search({ queries, limit: 2 }),
      recorder().dispatch,
    );
    const singles = [];
    for (const query of queries) {
      // Each in a session of its own: a second session's same query is "already searched".
      singles.push(await handleBridgeCall(fresh(), search({ query, limit: 2 }), vi.fn()));
    }
    expect(answer).toEqual({ results: singles });
    const [first, second, third] = (answer as { results: Record<string, unknown>[] }).results;
    expect(first).toMatchObject({ query: 'create a github issue' });
    expect((first!['matches'] as { name: string }[]).map((match) => match.name)).toContain(
      'github_create_issue',
    );
    expect((second!['matches'] as { name: string }[])[0]!.name).toMatch(/^slack_/);
    expect(third).toMatchObject({
      matches: [],
      message: expect.stringMatching(/^No tools matched/),
    });
  });

  it('still answers the single query, and puts query first when both are given', async () => {
    const assembly = fresh();
    const single = await handleBridgeCall(assembly, search({ query: 'slack' }), vi.fn());
    expect(single).toMatchObject({ query: 'slack', matches: expect.any(Array) });
    const both = (await handleBridgeCall(
      assembly,
      search({ query: 'slack', queries: ['github'] }),
      vi.fn(),
    )) as { results: { query: string }[] };
    expect(both.results.map((group) => group.query)).toEqual(['slack', 'github']);
  });

  it('reads the strict form, where unused fields are null', async () => {
    const answer = (await handleBridgeCall(
      fresh(),
      search('{"query":null,"queries":["slack","github"],"limit":null}'),
      vi.fn(),
    )) as { results: { query: string; matches: unknown[] }[] };
    expect(answer.results.map((group) => group.query)).toEqual(['slack', 'github']);
    expect(answer.results[0]!.matches).toHaveLength(5);
    expect(
      await handleBridgeCall(
        fresh(),
        search({ query: 'slack', queries: null, limit: null }),
        vi.fn(),
      ),
    ).toMatchObject({ query: 'slack' });
  });

  it('answers a blank query of the batch with its own error, and the others', async () => {
    const answer = (await handleBridgeCall(
      fresh(),
      search({ queries: ['slack', '  ', 7] }),
      vi.fn(),
    )) as { results: Record<string, unknown>[] };
    expect(answer.results[0]).toMatchObject({ query: 'slack' });
    expect(answer.results[1]).toEqual({ error: 'query is required', code: 'query_required' });
    expect(answer.results[2]).toEqual({ error: 'query is required', code: 'query_required' });
  });

  it('refuses more than 5 queries, saying the bound, and answers none', async () => {
    const assembly = fresh();
    const answer = await handleBridgeCall(
      assembly,
      search({ queries: ['a', 'b', 'c', 'd', 'e', 'f'] }),
      vi.fn(),
    );
    expect(answer).toEqual({
      error:
        'tool_search takes at most 5 queries at once; got 6. Search with at most 5, then the rest in another call.',
      code: 'too_many_queries',
    });
    expect(assembly.telemetry.errors).toBe(1);
  });

  it('refuses queries that are not a list, and needs a query when the list is empty', async () => {
    expect(await handleBridgeCall(fresh(), search({ queries: 'slack' }), vi.fn())).toEqual({
      error: "tool_search 'queries' must be an array of strings.",
      code: 'queries_not_list',
    });
    expect(await handleBridgeCall(fresh(), search({ queries: [] }), vi.fn())).toEqual({
      error: 'query is required',
      code: 'query_required',
    });
  });
});

describe('tool_search select:', () => {
  it('loads the exact names given, in order, with their full schemas', async () => {
    const assembly = fresh();
    const answer = (await handleBridgeCall(
      assembly,
      search({ query: 'select:slack_post_message, GitHub_Create_Issue,slack_post_message' }),
      vi.fn(),
    )) as { matches: Record<string, unknown>[]; not_found?: unknown };
    expect(answer.matches.map((match) => match['name'])).toEqual([
      'slack_post_message',
      'github_create_issue',
    ]);
    expect(answer.matches[1]).toEqual({
      name: 'github_create_issue',
      source: 'mcp',
      source_name: 'mcp-github',
      description: expect.any(String),
      parameters: assembly.catalog.get('github_create_issue')!.inputSchema,
    });
    expect(answer.not_found).toBeUndefined();
  });

  it('says why each other name is not loaded, with the contract texts', async () => {
    const previous = fresh();
    const assembly = assembleTools({
      tools: sessionTools.filter((tool) => tool.name !== 'slack_get_users'),
      config: forcedOn,
      previous,
    });
    const answer = (await handleBridgeCall(
      assembly,
      search({ query: 'select:bash,slack_get_users,jira_create,tool_call,slack_post_message' }),
      vi.fn(),
    )) as { matches: { name: string }[]; not_found: { name: string; error: string }[] };
    expect(answer.matches.map((match) => match.name)).toEqual(['slack_post_message']);
    expect(answer.not_found).toEqual([
      {
        name: 'bash',
        error:
          "'bash' is not a deferrable tool. If you see it in the tools list already, call it directly; otherwise check the spelling against tool_search.",
        code: 'not_deferrable',
      },
      {
        name: 'slack_get_users',
        error: "'slack_get_users' is not currently available. Re-run tool_search to refresh.",
        code: 'not_currently_available',
      },
      {
        name: 'jira_create',
        error:
          "'jira_create' is not available in this session. Use tool_search to find tools you can call.",
        code: 'not_in_session',
      },
      {
        name: 'tool_call',
        error:
          "'tool_call' is not a deferrable tool. If you see it in the tools list already, call it directly; otherwise check the spelling against tool_search.",
        code: 'not_deferrable',
      },
    ]);
  });

  it('refuses an empty selection and more than 10 names', async () => {
    expect(await handleBridgeCall(fresh(), search({ query: 'select: , ' }), vi.fn())).toEqual({
      error:
        "select: needs at least one exact tool name after it, e.g. 'select:github_create_issue,slack_post_message'.",
      code: 'select_empty',
    });
    const names = Array.from({ length: 11 }, (_, index) => `tool_${index}`).join(',');
    expect(await handleBridgeCall(fresh(), search({ query: `select:${names}` }), vi.fn())).toEqual({
      error:
        'select: loads at most 10 tools at once; got 11. Select at most 10, then the rest in another tool_search.',
      code: 'too_many_selected',
    });
  });
});

describe('tool_describe with names', () => {
  it('describes each name as the single call would, in order, errors included', async () => {
    const assembly = fresh();
    const names = ['slack_post_message', 'bash', 'github_create_isue', 'github_create_issue'];
    const answer = await handleBridgeCall(assembly, describeCall({ names }), vi.fn());
    const singles = [];
    for (const name of names) {
      singles.push(await handleBridgeCall(fresh(), describeCall({ name }), vi.fn()));
    }
    expect(answer).toEqual({ results: singles });
    const results = (answer as { results: Record<string, unknown>[] }).results;
    expect(results[0]).toMatchObject({
      name: 'slack_post_message',
      parameters: expect.any(Object),
    });
    expect(results[2]).toMatchObject({
      did_you_mean: expect.arrayContaining(['github_create_issue']),
    });
  });

  it('puts name first when both are given, and reads the strict form', async () => {
    const answer = (await handleBridgeCall(
      fresh(),
      describeCall('{"name":"slack_get_users","names":["slack_list_channels"]}'),
      vi.fn(),
    )) as { results: { name: string }[] };
    expect(answer.results.map((result) => result.name)).toEqual([
      'slack_get_users',
      'slack_list_channels',
    ]);
    expect(
      await handleBridgeCall(
        fresh(),
        describeCall({ name: 'slack_get_users', names: null }),
        vi.fn(),
      ),
    ).toMatchObject({ name: 'slack_get_users', parameters: expect.any(Object) });
  });

  it('refuses more than 10 names, saying the bound', async () => {
    const names = Array.from({ length: 11 }, () => 'slack_get_users');
    expect(await handleBridgeCall(fresh(), describeCall({ names }), vi.fn())).toEqual({
      error:
        'tool_describe takes at most 10 names at once; got 11. Describe at most 10, then the rest in another call.',
      code: 'too_many_names',
    });
    expect(await handleBridgeCall(fresh(), describeCall({ names: [] }), vi.fn())).toEqual({
      error: 'name is required',
      code: 'name_required',
    });
  });
});

describe('tool_call with calls', () => {
  it('dispatches each call once, in order, and answers in order as each single call would', async () => {
    const batch = recorder();
    const calls = [
      { name: 'github_create_issue', arguments: issue },
      { name: 'slack_post_message', arguments: JSON.stringify(post) },
      { name: 'slack_get_users', arguments: null },
    ];
    const answer = await handleBridgeCall(fresh(), toolCall({ calls }), batch.dispatch);
    const single = recorder();
    const singles = [];
    for (const call of calls) {
      singles.push(await handleBridgeCall(fresh(), toolCall(call), single.dispatch));
    }
    expect(answer).toEqual({ results: singles });
    expect(batch.calls).toEqual(single.calls);
    expect(batch.calls.map((entry) => entry.call)).toEqual([
      { name: 'github_create_issue', arguments: issue },
      { name: 'slack_post_message', arguments: post },
      { name: 'slack_get_users', arguments: {} },
    ]);
    expect(batch.calls.every((entry) => entry.context.via === 'bridge')).toBe(true);
  });

  it('answers a refused call with its error and still runs the others', async () => {
    const { calls: dispatched, dispatch } = recorder();
    const answer = (await handleBridgeCall(
      fresh(),
      toolCall({
        calls: [
          { name: 'jira_create', arguments: {} },
          { name: 'github_create_issue', arguments: { title: 'no repo' } },
          { name: 'slack_post_message', arguments: post },
          { name: 'tool_call', arguments: {} },
          { name: 'bash', arguments: { command: 'ls' } },
          'not a call',
          { name: 'slack_get_users', arguments: '{oops' },
        ],
      }),
      dispatch,
    )) as { results: Record<string, unknown>[] };
    // bash is in the model's list: it runs, with a hint to call it directly.
    expect(dispatched.map((entry) => entry.call.name)).toEqual(['slack_post_message', 'bash']);
    expect(answer.results.map((result) => result['error'] ?? result['ran'])).toEqual([
      "'jira_create' is not available in this session. Use tool_search to find tools you can call.",
      expect.stringMatching(
        /^'github_create_issue' was not invoked: missing required arguments 'owner', 'repo'/,
      ),
      'slack_post_message',
      "tool_call cannot invoke 'tool_call' (it is itself a bridge tool)",
      'bash',
      expect.stringMatching(/^tool_call 'arguments' is not valid JSON/),
      expect.stringMatching(/^tool_call 'arguments' is not valid JSON/),
    ]);
    expect(answer.results[4]!['hint']).toMatch(/^'bash' is already in your tools list/);
    expect(answer.results[1]).toMatchObject({
      missing: ['owner', 'repo'],
      parameters: expect.any(Object),
    });
  });

  it('gives each call of the batch its own id, derived from the outer one', async () => {
    const { calls: dispatched, dispatch } = recorder();
    await handleBridgeCall(
      fresh(),
      toolCall({ calls: [{ name: 'slack_get_users' }, { name: 'slack_list_channels' }] }, 'call_7'),
      dispatch,
    );
    expect(dispatched.map((entry) => entry.call.id)).toEqual(['call_7#0', 'call_7#1']);
  });

  it('reads the strict form: null fields, arguments as JSON text', async () => {
    const { calls: dispatched, dispatch } = recorder();
    await handleBridgeCall(
      fresh(),
      toolCall(
        JSON.stringify({
          name: null,
          arguments: null,
          calls: [{ name: 'slack_post_message', arguments: JSON.stringify(post) }],
        }),
      ),
      dispatch,
    );
    await handleBridgeCall(
      fresh(),
      toolCall({ name: 'slack_get_users', arguments: '{}', calls: null }),
      dispatch,
    );
    expect(dispatched.map((entry) => entry.call)).toEqual([
      { name: 'slack_post_message', arguments: post },
      { name: 'slack_get_users', arguments: {} },
    ]);
  });

  it('refuses a whole batch, running nothing, when it is too big, not a list, empty, or beside a name', async () => {
    const { dispatch } = recorder();
    const eleven = Array.from({ length: 11 }, () => ({ name: 'slack_get_users', arguments: {} }));
    const cases: [unknown, string, string][] = [
      [
        { calls: eleven },
        'tool_call takes at most 10 calls at once; got 11. Nothing was run: send at most 10, then the rest in another tool_call.',
        'too_many_calls',
      ],
      [
        { calls: { name: 'slack_get_users' } },
        "tool_call 'calls' must be an array of { name, arguments } objects.",
        'calls_not_list',
      ],
      [
        { calls: [] },
        "tool_call 'calls' is empty. Give at least one { name, arguments }.",
        'calls_empty',
      ],
      [
        { name: 'slack_get_users', arguments: {}, calls: [{ name: 'slack_list_channels' }] },
        "tool_call takes either 'name' and 'arguments', or 'calls', not both. Nothing was run: put every call in 'calls'.",
        'calls_and_name',
      ],
    ];
    for (const [args, error, code] of cases) {
      expect(await handleBridgeCall(fresh(), toolCall(args), dispatch)).toEqual({ error, code });
    }
    expect(dispatch).not.toHaveBeenCalled();
  });

  it('answers a call whose dispatch throws with an error, and runs the rest', async () => {
    const ran: string[] = [];
    const answer = (await handleBridgeCall(
      fresh(),
      toolCall({
        calls: [
          { name: 'slack_get_users', arguments: {} },
          { name: 'slack_list_channels', arguments: {} },
        ],
      }),
      (call) => {
        ran.push(call.name);
        if (call.name === 'slack_get_users') throw new Error('the runtime broke');
        return { ok: true };
      },
    )) as { results: unknown[] };
    expect(ran).toEqual(['slack_get_users', 'slack_list_channels']);
    expect(answer.results).toEqual([
      {
        error:
          'Call 1 of the batch failed: the runtime broke. The other calls were answered on their own.',
        code: 'call_failed',
      },
      { ok: true },
    ]);
  });

  it('counts each call of a batch in the telemetry', async () => {
    const assembly = fresh();
    await handleBridgeCall(
      assembly,
      toolCall({ calls: [{ name: 'slack_get_users' }, { name: 'nope' }] }),
      recorder().dispatch,
    );
    expect(assembly.telemetry).toMatchObject({ calls: 2, dispatched: 1, errors: 1, misses: 1 });
  });
});

describe('tool_search of a name that starts with select:', () => {
  it('finds the tool of that exact name rather than selecting', async () => {
    const odd = { ...sessionTools[2]!, name: 'select:odd' };
    const assembly = assembleTools({ tools: [odd], config: forcedOn });
    const answer = (await handleBridgeCall(assembly, search({ query: 'select:odd' }), vi.fn())) as {
      matches: { name: string; parameters?: unknown }[];
    };
    expect(answer.matches[0]).toMatchObject({ name: 'select:odd' });
    expect(answer.matches[0]!.parameters).toBeUndefined();
  });
});
