import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { call, configOf, hang, stateOf, tool } from './__fixtures__/call-state.js';
import { createSessionApprovalStore } from './session-approvals.js';
import { runApproval } from './step-approval.js';
import type { ApprovalRequest } from './types.js';

describe('runApproval', () => {
  it('returns the state unchanged when there is no adapter', async () => {
    const state = stateOf();
    expect(await runApproval(state, configOf())).toBe(state);
  });

  it("remembers 'allow-session' under the tool's identity key, and then asks no more", async () => {
    const sessionApprovals = createSessionApprovalStore();
    const request = vi.fn(() => 'allow-session' as const);
    const config = configOf({ approval: { request }, sessionApprovals });
    const first = await runApproval(stateOf({ tool }, { sessionId: 's' }), config);
    expect(first.approval).toBe('allow-session');
    expect(first.result).toBeUndefined();
    expect(sessionApprovals.has('s', 'memory/delete_entities')).toBe(true);
    expect(sessionApprovals.has('s', 'memory_delete_entities')).toBe(false);
    const again = await runApproval(stateOf({ tool }, { sessionId: 's' }), config);
    expect(again.approval).toBe('remembered');
    expect(request).toHaveBeenCalledTimes(1);
  });

  it('records a deny answer and denies with its reason', async () => {
    const config = configOf({
      approval: { name: 'human', request: () => ({ decision: 'deny', reason: 'not today' }) },
    });
    const next = await runApproval(stateOf(), config);
    expect(next.approval).toBe('deny');
    expect(next.result).toEqual({
      status: 'denied',
      call,
      by: { kind: 'approval', name: 'human' },
      reason: 'not today',
    });
  });

  it('asks with the current call, its tool, the session and via', async () => {
    const requests: ApprovalRequest[] = [];
    const config = configOf({
      approval: {
        request: (request) => {
          requests.push(request);
          return 'allow-once';
        },
      },
    });
    await runApproval(stateOf({ tool }, { sessionId: 's', via: 'bridge' }), config);
    expect(requests[0]).toMatchObject({ call, tool, sessionId: 's', via: 'bridge' });
  });

  describe('with fake timers', () => {
    beforeEach(() => {
      vi.useFakeTimers();
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it('denies when the adapter does not answer in time, and aborts its signal', async () => {
      let signal: AbortSignal | undefined;
      const config = configOf({
        approval: {
          name: 'human',
          request: (request) => {
            signal = request.signal;
            return hang();
          },
        },
        timeouts: { approval: 1000 },
      });
      const pending = runApproval(stateOf(), config);
      await vi.advanceTimersByTimeAsync(1000);
      const next = await pending;
      expect(next.result).toEqual({
        status: 'denied',
        call,
        by: { kind: 'approval', name: 'human' },
        reason:
          "Approval 'human' did not answer within 1000 ms, so the call to 'memory_delete_entities' is denied (approvals fail closed).",
      });
      expect(next.approval).toBeUndefined();
      expect(signal?.aborted).toBe(true);
    });
  });
});
