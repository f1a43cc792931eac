import { DEFAULT_RUNAWAY_SEARCH_LIMITS } from '@tool-search/core';
import { describe, expect, it } from 'vitest';
import { honestTask, keepsSearching, replay, retriesVisibleTool } from './__fixtures__/replay.js';
import { forcedOn, sessionTools } from './__fixtures__/tools.js';
import { searchesPerSuccessfulCall } from './telemetry.js';

// Every rule off: the bridge as it answered before runaway searches were stopped.
const unguarded = {
  ...forcedOn,
  runaway: { repeat_window_ms: 0, nudge_after: 0, max_searches: 0 },
};
const looping = keepsSearching([
  'send a message to slack',
  'Send messages to Slack',
  'slack message post',
  'notify the team',
]);

describe('replay: a model that keeps searching', () => {
  it('is refused once it has made the documented number of searches', async () => {
    const { maxSearches, nudgeAfter } = DEFAULT_RUNAWAY_SEARCH_LIMITS;
    const record = await replay(looping, { tools: sessionTools, config: forcedOn, maxTurns: 100 });
    const refusedAt = record.turns.findIndex(
      (turn) => (turn.answer as { code?: string }).code === 'search_limit',
    );
    expect(refusedAt).toBe(maxSearches);
    // Every search after the cap is refused too: the loop gets no more rankings.
    expect(
      record.turns
        .slice(maxSearches)
        .every((turn) => (turn.answer as { code?: string }).code === 'search_limit'),
    ).toBe(true);
    expect(record.telemetry.searchRefusals).toBe(100 - maxSearches);
    // The nudge starts at the documented streak and names select:.
    const nudged = record.turns.findIndex((turn) => 'nudge' in (turn.answer as object));
    expect(nudged).toBe(nudgeAfter - 1);
    expect((record.turns[nudged]!.answer as { nudge: string }).nudge).toMatch(
      /searched 5 times in a row.*select:slack_/,
    );
    expect(record.telemetry.longestSearchStreak).toBe(maxSearches);
    expect(searchesPerSuccessfulCall(record.telemetry)).toBe(100);
  });

  it('is answered from memory, not ranked again, when it repeats a query in other words', async () => {
    const record = await replay(looping, { tools: sessionTools, config: forcedOn, maxTurns: 8 });
    const [first, second] = record.turns.map((turn) => turn.answer as Record<string, unknown>);
    expect(first).not.toHaveProperty('already_searched');
    // 'Send messages to Slack' analyses like 'send a message to slack'.
    expect(second).toMatchObject({ already_searched: true, matches: first!['matches'] });
    expect(second!['hint']).toMatch(/^You already searched for this/);
    // Three of the four phrasings are new; the other five searches repeat one of them.
    expect(record.telemetry.repeatedSearches).toBe(5);
  });

  it('loops without end when every rule is off (the reported traces)', async () => {
    const record = await replay(looping, { tools: sessionTools, config: unguarded, maxTurns: 100 });
    expect(record.turns).toHaveLength(100);
    expect(record.telemetry.searchRefusals).toBe(0);
    expect(record.telemetry.repeatedSearches).toBe(0);
  });
});

describe('replay: a model that retries a visible tool through the bridge', () => {
  it('gets the result on its first call, with a hint to call the tool directly', async () => {
    const record = await replay(retriesVisibleTool('bash', { command: 'ls' }), {
      tools: sessionTools,
      config: forcedOn,
    });
    expect(record.turns).toHaveLength(1);
    expect(record.dispatched).toEqual([{ name: 'bash', arguments: { command: 'ls' } }]);
    expect(record.turns[0]!.answer).toMatchObject({
      ok: true,
      ran: 'bash',
      hint: "'bash' is already in your tools list: it ran, but call it directly by its name next time, not through tool_call.",
    });
    expect(record.telemetry.visibleCalls).toBe(1);
  });

  it('still refuses arguments that break the visible tool schema, so they never run', async () => {
    const record = await replay(retriesVisibleTool('bash', { command: 42 }), {
      tools: sessionTools,
      config: forcedOn,
      maxTurns: 3,
    });
    expect(record.dispatched).toEqual([]);
    expect(record.turns[0]!.answer).toMatchObject({ code: 'invalid_arguments', name: 'bash' });
  });
});

describe('replay: an honest multi-step task', () => {
  it('makes the same calls and gets the same answers with the guard as without it', async () => {
    const guarded = await replay(honestTask(), { tools: sessionTools, config: forcedOn });
    const plain = await replay(honestTask(), { tools: sessionTools, config: unguarded });
    expect(guarded.turns).toHaveLength(8);
    expect(guarded.dispatched).toEqual(plain.dispatched);
    expect(guarded.dispatched.map((call) => call.name)).toEqual([
      'github_create_issue',
      'bash',
      'slack_post_message',
      'slack_list_channels',
    ]);
    expect(guarded.turns.map((turn) => turn.answer)).toEqual(
      plain.turns.map((turn) => turn.answer),
    );
    expect(guarded.telemetry).toMatchObject({
      repeatedSearches: 0,
      searchNudges: 0,
      searchRefusals: 0,
      longestSearchStreak: 1,
      successfulCalls: 3,
    });
  });
});
