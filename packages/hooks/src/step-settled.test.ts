import { describe, expect, it } from 'vitest';
import { call, configOf, stateOf } from './__fixtures__/call-state.js';
import { deny, type SettledCallState } from './call-state.js';
import { runSettledHooks } from './step-settled.js';
import type { DispatchContext, DispatchSettled } from './types.js';

describe('runSettledHooks', () => {
  const renamed = { name: 'renamed', arguments: {} };
  const decided = (): SettledCallState =>
    deny(
      stateOf(
        { call: renamed, approval: 'deny', executed: false },
        { signal: AbortSignal.abort() },
      ),
      { kind: 'approval', name: 'human' },
      'no',
    );

  it('gives every onSettled hook the requested call, the result and how it went, even for an aborted signal', async () => {
    const records: DispatchSettled[] = [];
    const contexts: DispatchContext[] = [];
    const hook = {
      name: 'audit',
      onSettled: (record: DispatchSettled, ctx: DispatchContext) => {
        records.push(record);
        contexts.push(ctx);
      },
    };
    const next = await runSettledHooks(decided(), configOf({ hooks: [hook, hook] }));
    expect(records).toHaveLength(2);
    expect(records[0]).toMatchObject({
      requestedCall: call,
      result: { status: 'denied', call: renamed, by: { kind: 'approval', name: 'human' } },
      executed: false,
      approval: 'deny',
    });
    expect(records[0]?.durationMs).toBeGreaterThanOrEqual(0);
    expect(contexts[0]?.signal.aborted).toBe(false);
    expect(next.result).toEqual({
      status: 'denied',
      call: renamed,
      by: { kind: 'approval', name: 'human' },
      reason: 'no',
    });
  });

  it('adds a failing onSettled hook to the warnings of the result, not of the record', async () => {
    const records: DispatchSettled[] = [];
    const state: SettledCallState = { ...decided(), warnings: ['earlier'] };
    const next = await runSettledHooks(
      state,
      configOf({
        hooks: [
          { name: 'audit', onSettled: (record) => void records.push(record) },
          { name: 'broken', onSettled: () => Promise.reject(new Error('disk full')) },
        ],
      }),
    );
    expect(records[0]?.result.warnings).toEqual(['earlier']);
    expect(next.result.warnings).toEqual([
      'earlier',
      "onSettled hook 'broken' failed: disk full; it was skipped.",
    ]);
  });
});
