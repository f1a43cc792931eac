import type { Ranker, ToolCall } from '@tool-search/core';
import { describe, expect, it, vi } from 'vitest';
import { forcedOn, mcpTools, paddedTool, sessionTools } from './__fixtures__/tools.js';
import { assembleTools } from './assemble.js';
import type { BridgeDispatchContext } from './bridge-results.js';
import { handleBridgeCall } from './handle.js';

const fresh = (config: Record<string, unknown> = forcedOn) =>
  assembleTools({ tools: sessionTools, config });

function recorder() {
  const calls: { call: ToolCall; context: BridgeDispatchContext }[] = [];
  const dispatch = vi.fn((call: ToolCall, context: BridgeDispatchContext) => {
    calls.push({ call, context });
    return { ok: true, ran: call.name };
  });
  return { calls, dispatch };
}

const search = (args: unknown) => ({ name: 'tool_search', arguments: args });
const describeCall = (args: unknown) => ({ name: 'tool_describe', arguments: args });

describe('handleBridgeCall', () => {
  it('returns undefined for a call that is not for the bridge', () => {
    const { dispatch } = recorder();
    const assembly = fresh();
    expect(handleBridgeCall(assembly, { name: 'bash', arguments: {} }, dispatch)).toBeUndefined();
    expect(handleBridgeCall(assembly, { name: 'nope', arguments: {} }, dispatch)).toBeUndefined();
    expect(dispatch).not.toHaveBeenCalled();
  });

  it('never shows a tool origin to the model in search hits or descriptions', async () => {
    const tools = sessionTools.map((tool) =>
      tool.name === 'github_create_issue'
        ? { ...tool, origin: { server: 'origin-server-x', name: 'create_issue_upstream' } }
        : tool,
    );
    const assembly = assembleTools({ tools, config: forcedOn });
    const found = await handleBridgeCall(
      assembly,
      search({ query: 'create a github issue' }),
      recorder().dispatch,
    );
    const described = await handleBridgeCall(
      assembly,
      describeCall({ name: 'github_create_issue' }),
      recorder().dispatch,
    );
    expect(JSON.stringify(found)).toContain('github_create_issue');
    expect(JSON.stringify(described)).toContain('github_create_issue');
    for (const answer of [found, described]) {
      expect(JSON.stringify(answer)).not.toMatch(/origin|create_issue_upstream/);
    }
  });

  describe('tool_search', () => {
    it.each([undefined, {}, { query: '' }, { query: '   ' }, { query: 42 }, '{"query":""}'])(
      'requires a query (%j)',
      async (args) => {
        expect(await handleBridgeCall(fresh(), search(args), recorder().dispatch)).toEqual({
          error: 'query is required',
          code: 'query_required',
        });
      },
    );

    it('answers with query, total_available and matches', async () => {
      const answer = await handleBridgeCall(
        fresh(),
        search({ query: '  create a github issue ' }),
        recorder().dispatch,
      );
      expect(answer).toMatchObject({ query: 'create a github issue', total_available: 17 });
      const { matches } = answer as unknown as { matches: Record<string, unknown>[] };
      expect(matches.length).toBeGreaterThan(0);
      expect(matches.length).toBeLessThanOrEqual(5);
      expect(matches.map((match) => match['name'])).toContain('github_create_issue');
      expect(matches[0]).toEqual({
        name: expect.any(String),
        source: 'mcp',
        source_name: expect.stringMatching(/^mcp-/),
        description: expect.any(String),
      });
      expect(JSON.parse(JSON.stringify(answer))).toEqual(answer);
    });

    it('accepts its arguments as a JSON string', async () => {
      const answer = await handleBridgeCall(
        fresh(),
        search('{"query":"slack message","limit":2}'),
        recorder().dispatch,
      );
      expect((answer as { matches: unknown[] }).matches).toHaveLength(2);
    });

    it('cuts descriptions to 400 characters', async () => {
      const long = paddedTool(1, 2_000);
      const assembly = assembleTools({ tools: [long], config: forcedOn });
      const answer = await handleBridgeCall(assembly, search({ query: long.name }), vi.fn());
      const [match] = (answer as { matches: { description: string }[] }).matches;
      expect(match!.description).toHaveLength(400);
    });

    it('uses the config default when limit is absent or garbage, and clamps it', async () => {
      const bulk = Array.from({ length: 60 }, (_, index) => paddedTool(index, 100));
      // A ranker that matches everything, so that only the limit bounds the answer.
      const everything: Ranker = {
        specificationVersion: 'v1',
        id: 'everything',
        index: (tools) => ({
          search: (_query, limit) =>
            tools.slice(0, limit).map((tool, index) => ({ name: tool.name, score: 100 - index })),
        }),
      };
      const assembly = assembleTools({
        tools: bulk,
        config: { enabled: 'on', search_default_limit: 3, max_search_limit: 10 },
        ranker: everything,
      });
      const count = async (limit: unknown) => {
        const args = limit === 'absent' ? { query: 'bulk tool' } : { query: 'bulk tool', limit };
        const answer = await handleBridgeCall(assembly, search(args), vi.fn());
        return (answer as { matches: unknown[] }).matches.length;
      };
      expect(await count('absent')).toBe(3);
      expect(await count(null)).toBe(3);
      expect(await count('lots')).toBe(3);
      expect(await count({})).toBe(3);
      expect(await count(Number.NaN)).toBe(3);
      expect(await count(7)).toBe(7);
      expect(await count('7')).toBe(7);
      expect(await count(4.9)).toBe(4);
      expect(await count(0)).toBe(1);
      expect(await count(-3)).toBe(1);
      expect(await count(999)).toBe(10);
      expect(await count(Number.POSITIVE_INFINITY)).toBe(3);
    });

    it('returns the tool whose exact name is the query first', async () => {
      // A ranker that never puts the exact name first.
      const reversed: Ranker = {
        specificationVersion: 'v1',
        id: 'everything-reversed',
        index: (tools) => ({
          search: (_query, limit) =>
            [...tools]
              .reverse()
              .slice(0, limit)
              .map((tool, index) => ({ name: tool.name, score: 100 - index })),
        }),
      };
      const assembly = assembleTools({ tools: mcpTools, config: forcedOn, ranker: reversed });
      const answer = await handleBridgeCall(
        assembly,
        search({ query: 'github_create_issue', limit: 3 }),
        vi.fn(),
      );
      const matches = (answer as { matches: { name: string }[] }).matches;
      expect(matches.map((match) => match.name)).toEqual([
        'github_create_issue',
        mcpTools.at(-1)!.name,
        mcpTools.at(-2)!.name,
      ]);
      const folded = await handleBridgeCall(
        assembly,
        search({ query: 'GitHub_Create_Issue', limit: 1 }),
        vi.fn(),
      );
      expect((folded as { matches: { name: string }[] }).matches).toEqual([
        expect.objectContaining({ name: 'github_create_issue' }),
      ]);
    });

    it('searches all of a long query but echoes only its first 500 characters', async () => {
      const long = `slack ${'x'.repeat(5_000)}`;
      const answer = (await handleBridgeCall(fresh(), search({ query: long }), vi.fn())) as {
        query: string;
        matches: { name: string }[];
      };
      expect(answer.query).toBe(`${long.slice(0, 500)}…`);
      expect(answer.matches.length).toBeGreaterThan(0);
      expect(answer.matches.every((match) => match.name.startsWith('slack'))).toBe(true);
    });

    it('says so when nothing matches, suggests broadening and names the searchable toolsets', async () => {
      const assembly = fresh();
      const answer = await handleBridgeCall(
        assembly,
        search({ query: 'asdf qwerty foobar' }),
        vi.fn(),
      );
      expect(answer).toMatchObject({
        query: 'asdf qwerty foobar',
        total_available: 17,
        matches: [],
      });
      const { message } = answer as { message: string };
      expect(message).toMatch(/^No tools matched 'asdf qwerty foobar'\. Try broader/);
      expect(message).toContain('Searchable toolsets: mcp-github, mcp-slack.');
      expect(assembly.telemetry.misses).toBe(1);
    });

    it('turns a failing ranker into an error answer', async () => {
      const broken: Ranker = {
        specificationVersion: 'v1',
        id: 'broken',
        index: () => {
          throw new Error('index exploded');
        },
      };
      const assembly = assembleTools({ tools: mcpTools, config: forcedOn, ranker: broken });
      const answer = await handleBridgeCall(assembly, search({ query: 'issue' }), vi.fn());
      expect(answer).toEqual({
        error: expect.stringMatching(/^tool_search failed: .*index exploded/),
        code: 'search_failed',
      });
    });
  });

  describe('tool_describe', () => {
    it('answers with the full schema', async () => {
      const tool = mcpTools.find((candidate) => candidate.name === 'github_create_issue')!;
      expect(
        await handleBridgeCall(fresh(), describeCall({ name: 'github_create_issue' }), vi.fn()),
      ).toEqual({
        name: 'github_create_issue',
        description: tool.description,
        parameters: tool.inputSchema,
      });
    });

    it.each([undefined, {}, { name: '' }, { name: ' ' }, { name: null }])(
      'requires a name (%j)',
      async (args) => {
        expect(await handleBridgeCall(fresh(), describeCall(args), vi.fn())).toEqual({
          error: 'name is required',
          code: 'name_required',
        });
      },
    );

    it('refuses a core tool', async () => {
      expect(await handleBridgeCall(fresh(), describeCall({ name: 'bash' }), vi.fn())).toEqual({
        error:
          "'bash' is not a deferrable tool. If you see it in the tools list already, call it directly; otherwise check the spelling against tool_search.",
        code: 'not_deferrable',
        name: 'bash',
      });
    });

    it('suggests up to three names from this session only for an unknown name', async () => {
      const answer = (await handleBridgeCall(
        fresh(),
        describeCall({ name: 'github_create_isue' }),
        vi.fn(),
      )) as { error: string; did_you_mean: string[] };
      expect(answer.error).toBe(
        "'github_create_isue' is not available in this session. Use tool_search to find tools you can call.",
      );
      expect(answer.did_you_mean[0]).toBe('github_create_issue');
      expect(answer.did_you_mean.length).toBeLessThanOrEqual(3);
      const catalogNames = new Set(mcpTools.map((tool) => tool.name));
      for (const name of answer.did_you_mean) expect(catalogNames.has(name)).toBe(true);
    });

    it('never suggests a name outside the session', async () => {
      const onlySlack = assembleTools({
        tools: sessionTools.filter((tool) => tool.toolset !== 'mcp-github'),
        config: forcedOn,
      });
      const answer = (await handleBridgeCall(
        onlySlack,
        describeCall({ name: 'github_create_issue' }),
        vi.fn(),
      )) as { did_you_mean?: string[] };
      for (const name of answer.did_you_mean ?? []) expect(name).toMatch(/^slack_/);
    });
  });

  describe('tool_call', () => {
    it('dispatches the real call with via: bridge and returns its result', async () => {
      const { calls, dispatch } = recorder();
      const assembly = fresh();
      const result = await handleBridgeCall(
        assembly,
        {
          id: 'c1',
          name: 'tool_call',
          arguments: { name: 'slack_post_message', arguments: { channel_id: 'C1', text: 'hi' } },
        },
        dispatch,
        { context: { sessionId: 's1' } },
      );
      expect(result).toEqual({ ok: true, ran: 'slack_post_message' });
      expect(calls).toHaveLength(1);
      expect(calls[0]!.call).toEqual({
        id: 'c1',
        name: 'slack_post_message',
        arguments: { channel_id: 'C1', text: 'hi' },
      });
      expect(calls[0]!.context).toMatchObject({
        sessionId: 's1',
        via: 'bridge',
        tool: { name: 'slack_post_message' },
      });
      expect(assembly.telemetry).toMatchObject({ calls: 1, dispatched: 1, errors: 0 });
    });

    it('refuses tool_call on tool_call without dispatching', async () => {
      const { dispatch } = recorder();
      expect(
        await handleBridgeCall(
          fresh(),
          { name: 'tool_call', arguments: { name: 'tool_call', arguments: {} } },
          dispatch,
        ),
      ).toEqual({
        error: "tool_call cannot invoke 'tool_call' (it is itself a bridge tool)",
        code: 'bridge_tool',
        name: 'tool_call',
      });
      expect(dispatch).not.toHaveBeenCalled();
    });

    it('answers missing required arguments with the schema and does not dispatch', async () => {
      const { dispatch } = recorder();
      const answer = await handleBridgeCall(
        fresh(),
        { name: 'tool_call', arguments: { name: 'slack_post_message', arguments: {} } },
        dispatch,
      );
      expect(answer).toMatchObject({
        error: expect.stringContaining('was not invoked'),
        name: 'slack_post_message',
        missing: ['channel_id', 'text'],
        parameters: { type: 'object' },
      });
      expect(dispatch).not.toHaveBeenCalled();
    });

    it('suggests names for a tool outside the session', async () => {
      const answer = await handleBridgeCall(
        fresh(),
        { name: 'tool_call', arguments: { name: 'slack_post_mesage', arguments: {} } },
        vi.fn(),
      );
      expect(answer).toMatchObject({
        error: expect.stringContaining('is not available in this session'),
        code: 'not_in_session',
        did_you_mean: expect.arrayContaining(['slack_post_message']),
      });
    });
  });

  describe('direct calls of a deferred tool', () => {
    const direct = {
      id: 'd1',
      name: 'slack_post_message',
      arguments: '{"channel_id":"C1","text":"hi"}',
    };

    it('are routed like tool_call: same checks, same dispatch', async () => {
      const { calls, dispatch } = recorder();
      const assembly = fresh();
      const answer = handleBridgeCall(assembly, direct, dispatch);
      expect(answer).toBeDefined();
      expect(await answer).toEqual({ ok: true, ran: 'slack_post_message' });
      expect(calls[0]!.call).toEqual({
        id: 'd1',
        name: 'slack_post_message',
        arguments: { channel_id: 'C1', text: 'hi' },
      });
      expect(calls[0]!.context).toMatchObject({ via: 'direct' });
      expect(assembly.telemetry.directCalls).toBe(1);

      const missing = await handleBridgeCall(assembly, { ...direct, arguments: {} }, dispatch);
      expect(missing).toMatchObject({ missing: ['channel_id', 'text'] });
      expect(calls).toHaveLength(1);
    });

    it('are left to the runtime when routing is turned off or nothing is deferred', () => {
      const { dispatch } = recorder();
      expect(
        handleBridgeCall(fresh(), direct, dispatch, { routeDirectCalls: false }),
      ).toBeUndefined();
      expect(handleBridgeCall(fresh({ enabled: 'off' }), direct, dispatch)).toBeUndefined();
    });

    it('of a name the model was never given are refused with refuseUnknownNames', async () => {
      const { dispatch } = recorder();
      const assembly = fresh();
      const unknown = { name: 'jira_create_ticket', arguments: {} };
      expect(handleBridgeCall(assembly, unknown, dispatch)).toBeUndefined();
      expect(
        await handleBridgeCall(assembly, unknown, dispatch, { refuseUnknownNames: true }),
      ).toMatchObject({
        error:
          "'jira_create_ticket' is not available in this session. Use tool_search to find tools you can call.",
        code: 'not_in_session',
        name: 'jira_create_ticket',
      });
      expect(
        handleBridgeCall(assembly, { name: 'bash', arguments: {} }, dispatch, {
          refuseUnknownNames: true,
        }),
      ).toBeUndefined();
      const passthrough = fresh({ enabled: 'off' });
      expect(
        await handleBridgeCall(passthrough, unknown, dispatch, { refuseUnknownNames: true }),
      ).toMatchObject({
        error: expect.stringContaining('not available in this session'),
        code: 'not_in_session',
      });
      expect(dispatch).not.toHaveBeenCalled();
    });

    it('are told to onRefused when refused as outside the session, through tool_call, a batch or directly', async () => {
      const { dispatch } = recorder();
      const assembly = fresh();
      const refusals: unknown[] = [];
      const options = { refuseUnknownNames: true, onRefused: (r: unknown) => refusals.push(r) };
      await handleBridgeCall(
        assembly,
        { name: 'jira_create_ticket', arguments: {} },
        dispatch,
        options,
      );
      await handleBridgeCall(
        assembly,
        { id: 'c1', name: 'tool_call', arguments: { name: 'jira_create_ticket', arguments: {} } },
        dispatch,
        options,
      );
      await handleBridgeCall(
        assembly,
        { id: 'c2', name: 'tool_call', arguments: { calls: [{ name: 'jira_create_ticket' }] } },
        dispatch,
        {
          ...options,
          onRefused: (r: unknown) => {
            refusals.push(r);
            throw new Error('ignored');
          },
        },
      );
      // A refusal for another reason (no name) is not an out-of-scope refusal.
      await handleBridgeCall(assembly, { name: 'tool_call', arguments: {} }, dispatch, options);
      const error =
        "'jira_create_ticket' is not available in this session. Use tool_search to find tools you can call.";
      expect(refusals).toEqual([
        { name: 'jira_create_ticket', code: 'not_in_session', error, via: 'direct' },
        {
          name: 'jira_create_ticket',
          code: 'not_in_session',
          error,
          via: 'bridge',
          id: 'c1',
        },
        {
          name: 'jira_create_ticket',
          code: 'not_in_session',
          error,
          via: 'bridge',
          id: 'c2#0',
        },
      ]);
      expect(dispatch).not.toHaveBeenCalled();
    });

    it('of a tool gone since the previous assembly answer not currently available', async () => {
      const first = fresh();
      const later = assembleTools({
        tools: sessionTools.filter((tool) => tool.toolset !== 'mcp-slack'),
        config: forcedOn,
        previous: first,
      });
      const { dispatch } = recorder();
      expect(await handleBridgeCall(later, direct, dispatch)).toEqual({
        error: "'slack_post_message' is not currently available. Re-run tool_search to refresh.",
        code: 'not_currently_available',
        name: 'slack_post_message',
      });
      expect(dispatch).not.toHaveBeenCalled();
    });
  });

  it('counts searches, describes, calls, misses and errors', async () => {
    const assembly = fresh();
    const { dispatch } = recorder();
    await handleBridgeCall(assembly, search({ query: 'issue' }), dispatch);
    await handleBridgeCall(assembly, search({ query: 'asdf qwerty foobar' }), dispatch);
    await handleBridgeCall(assembly, describeCall({ name: 'github_create_issue' }), dispatch);
    await handleBridgeCall(assembly, describeCall({ name: 'nope' }), dispatch);
    await handleBridgeCall(
      assembly,
      { name: 'tool_call', arguments: { name: 'slack_list_channels', arguments: {} } },
      dispatch,
    );
    expect(assembly.telemetry).toEqual({
      assemblies: 1,
      activations: 1,
      searches: 2,
      describes: 2,
      calls: 1,
      directCalls: 0,
      dispatched: 1,
      argumentsRepaired: 0,
      argumentsUnchecked: 0,
      argumentsPartlyChecked: 0,
      misses: 2,
      errors: 1,
      tokensSaved: assembly.stats.tokensSaved,
      successfulCalls: 1,
      visibleCalls: 0,
      repeatedSearches: 0,
      searchNudges: 0,
      searchRefusals: 0,
      longestSearchStreak: 2,
    });
  });
});
