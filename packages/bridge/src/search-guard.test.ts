import type { ToolCall } from '@tool-search/core';
import { ToolSearchError } from '@tool-search/core';
import { describe, expect, it } from 'vitest';
import { forcedOn, sessionTools } from './__fixtures__/tools.js';
import { assembleTools } from './assemble.js';
import { handleBridgeCall } from './handle.js';
import { createSearchGuard } from './search-guard.js';

const search = (query: string, limit?: number) => ({
  name: 'tool_search',
  arguments: limit === undefined ? { query } : { query, limit },
});
const ok = (call: ToolCall) => ({ ok: true, ran: call.name });
const failed = () => ({ content: [], isError: true });
type Answer = Record<string, unknown>;

function clock(start = 1_000_000) {
  const state = { now: start };
  return { now: () => state.now, advance: (ms: number) => (state.now += ms) };
}

describe('createSearchGuard', () => {
  it('answers a query that analyses alike "already searched", with the same hits', async () => {
    const assembly = assembleTools({ tools: sessionTools, config: forcedOn });
    const first = (await handleBridgeCall(assembly, search('post slack messages'), ok)) as Answer;
    const again = (await handleBridgeCall(assembly, search('Post Slack message'), ok)) as Answer;
    expect(again).toEqual({ ...first, already_searched: true, hint: expect.any(String) });
    expect(assembly.telemetry.repeatedSearches).toBe(1);
    // Another limit is another question.
    const wider = (await handleBridgeCall(assembly, search('post slack message', 8), ok)) as Answer;
    expect(wider).not.toHaveProperty('already_searched');
  });

  it('ranks again once the repeat window has passed, or when the catalog changed', async () => {
    const time = clock();
    const searchGuard = createSearchGuard({ now: time.now, limits: { repeatWindowMs: 1_000 } });
    let assembly = assembleTools({ tools: sessionTools, config: forcedOn, searchGuard });
    await handleBridgeCall(assembly, search('list channels'), ok);
    time.advance(1_001);
    expect(await handleBridgeCall(assembly, search('list channels'), ok)).not.toHaveProperty(
      'already_searched',
    );
    assembly = assembleTools({
      tools: sessionTools.filter((tool) => tool.name !== 'slack_get_users'),
      config: forcedOn,
      previous: assembly,
    });
    expect(await handleBridgeCall(assembly, search('list channels'), ok)).not.toHaveProperty(
      'already_searched',
    );
  });

  it('nudges after the configured streak, and a successful call starts it over', async () => {
    const assembly = assembleTools({
      tools: sessionTools,
      config: { ...forcedOn, runaway: { nudge_after: 2 } },
    });
    const first = (await handleBridgeCall(assembly, search('create issue'), ok)) as Answer;
    expect(first).not.toHaveProperty('nudge');
    const second = (await handleBridgeCall(assembly, search('open pull request'), ok)) as Answer;
    expect(second['nudge']).toMatch(
      /^You have searched 2 times in a row without a successful call\. The best matches so far: github_create_pull_request/,
    );
    expect(second['nudge']).toContain("'select:github_create_pull_request,");
    // A call that failed does not end the streak; one that succeeded does.
    const call = {
      name: 'tool_call',
      arguments: { name: 'slack_list_channels', arguments: {} },
    };
    await handleBridgeCall(assembly, call, failed);
    expect(assembly.searchGuard?.streak).toBe(2);
    await handleBridgeCall(assembly, call, ok);
    expect(assembly.searchGuard?.streak).toBe(0);
    const after = (await handleBridgeCall(assembly, search('add a reaction'), ok)) as Answer;
    expect(after).not.toHaveProperty('nudge');
    expect(assembly.telemetry).toMatchObject({ searchNudges: 1, successfulCalls: 1 });
  });

  it('does not count select: loads, and lets them through past the cap', async () => {
    const assembly = assembleTools({
      tools: sessionTools,
      config: { ...forcedOn, runaway: { max_searches: 1 } },
    });
    await handleBridgeCall(assembly, search('create issue'), ok);
    expect(await handleBridgeCall(assembly, search('reply in thread'), ok)).toMatchObject({
      code: 'search_limit',
    });
    const loaded = (await handleBridgeCall(
      assembly,
      search('select:slack_reply_to_thread'),
      ok,
    )) as Answer;
    expect((loaded['matches'] as { name: string }[]).map((match) => match.name)).toEqual([
      'slack_reply_to_thread',
    ]);
  });

  it('counts a batch of queries as one search, and frees the cap as the window slides', async () => {
    const time = clock();
    const searchGuard = createSearchGuard({
      now: time.now,
      limits: { maxSearches: 2, windowMs: 10_000 },
    });
    const assembly = assembleTools({ tools: sessionTools, config: forcedOn, searchGuard });
    const batch = { name: 'tool_search', arguments: { queries: ['create issue', 'post message'] } };
    expect(await handleBridgeCall(assembly, batch, ok)).toHaveProperty('results');
    time.advance(5_000);
    await handleBridgeCall(assembly, search('list files'), ok);
    expect(await handleBridgeCall(assembly, search('read a file'), ok)).toMatchObject({
      code: 'search_limit',
    });
    time.advance(5_000);
    expect(await handleBridgeCall(assembly, search('read a file'), ok)).toHaveProperty('matches');
  });

  it('keeps each session apart: one session at its cap does not limit another', async () => {
    const config = { ...forcedOn, runaway: { max_searches: 1 } };
    const one = assembleTools({ tools: sessionTools, config });
    const two = assembleTools({ tools: sessionTools, config });
    await handleBridgeCall(one, search('create issue'), ok);
    expect(await handleBridgeCall(one, search('post message'), ok)).toMatchObject({
      code: 'search_limit',
    });
    expect(await handleBridgeCall(two, search('post message'), ok)).toHaveProperty('matches');
  });

  it('lets its own limits win over the config, and turns a rule off with 0', async () => {
    const searchGuard = createSearchGuard({ limits: { maxSearches: 0, nudgeAfter: 0 } });
    const assembly = assembleTools({
      tools: sessionTools,
      config: { ...forcedOn, runaway: { max_searches: 1, nudge_after: 1 } },
      searchGuard,
    });
    for (const query of ['create issue', 'post message', 'list files']) {
      const answer = (await handleBridgeCall(assembly, search(query), ok)) as Answer;
      expect(answer).toHaveProperty('matches');
      expect(answer).not.toHaveProperty('nudge');
    }
  });

  it('rejects a limit that is not a number of at least 0, and an object it did not make', () => {
    expect(() => createSearchGuard({ limits: { maxSearches: -1 } })).toThrow(ToolSearchError);
    expect(() => createSearchGuard({ limits: { windowMs: Number.NaN } })).toThrow(
      /limits\.windowMs must be a number of at least 0/,
    );
    expect(() =>
      assembleTools({ tools: sessionTools, searchGuard: { streak: 0, recordCall() {} } }),
    ).toThrow(/not a search guard/);
  });
});
