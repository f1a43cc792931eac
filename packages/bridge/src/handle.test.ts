import type { Ranker } from '@tool-search/core';
import { describe, expect, it, vi } from 'vitest';
import { describeCall, fresh, recorder, search } from './__fixtures__/bridge-calls.js';
import { forcedOn, mcpTools, paddedTool, sessionTools } from './__fixtures__/tools.js';
import { assembleTools } from './assemble.js';
import { handleBridgeCall } from './handle.js';

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
});
