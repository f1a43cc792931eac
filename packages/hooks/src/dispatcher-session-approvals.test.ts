import { describe, expect, it } from 'vitest';
import { call, setup } from './__fixtures__/dispatcher-setup.js';
import { createDispatcher } from './dispatcher.js';
import { createSessionApprovalStore } from './session-approvals.js';
import type { DispatchSettled } from './types.js';

describe('createDispatcher', () => {
  describe('session approvals', () => {
    it("remembers 'allow-session' per session id and tool, never across sessions", async () => {
      const { approval, execute, log } = setup();
      const dispatch = createDispatcher({ execute, approval: approval(() => 'allow-session') });
      await dispatch(call, { sessionId: 'a' });
      await dispatch(call, { sessionId: 'a' });
      await dispatch(call, { sessionId: 'b' });
      await dispatch({ name: 'other_tool', arguments: {} }, { sessionId: 'a' });
      expect(log.filter((line) => line.startsWith('approval'))).toEqual([
        'approval github_create_issue',
        'approval github_create_issue',
        'approval other_tool',
      ]);
      expect(execute).toHaveBeenCalledTimes(4);
    });

    it("never remembers 'allow-session' without a session id", async () => {
      const { approval, execute, log } = setup();
      const dispatch = createDispatcher({ execute, approval: approval(() => 'allow-session') });
      await dispatch(call);
      await dispatch(call);
      expect(log.filter((line) => line.startsWith('approval'))).toHaveLength(2);
    });

    it("does not remember 'allow-once'", async () => {
      const { approval, execute, log } = setup();
      const dispatch = createDispatcher({ execute, approval: approval(() => 'allow-once') });
      await dispatch(call, { sessionId: 'a' });
      await dispatch(call, { sessionId: 'a' });
      expect(log.filter((line) => line.startsWith('approval'))).toHaveLength(2);
    });

    it('tells onSettled hooks that a remembered approval was used', async () => {
      const settled: DispatchSettled[] = [];
      const dispatch = createDispatcher({
        execute: () => 'x',
        approval: { request: () => 'allow-session' },
        hooks: [{ name: 'audit', onSettled: (record) => void settled.push(record) }],
      });
      await dispatch(call, { sessionId: 'a' });
      await dispatch(call, { sessionId: 'a' });
      expect(settled.map((record) => record.approval)).toEqual(['allow-session', 'remembered']);
    });

    it('uses a given store, which can forget a session', async () => {
      const sessionApprovals = createSessionApprovalStore();
      const { approval, execute, log } = setup();
      const dispatch = createDispatcher({
        execute,
        approval: approval(() => 'allow-session'),
        sessionApprovals,
      });
      await dispatch(call, { sessionId: 'a' });
      expect(sessionApprovals.has('a', 'github_create_issue')).toBe(true);
      sessionApprovals.forget('a');
      await dispatch(call, { sessionId: 'a' });
      expect(log.filter((line) => line.startsWith('approval'))).toHaveLength(2);
    });

    it('keys the memory on the final call after a rewrite', async () => {
      const sessionApprovals = createSessionApprovalStore();
      const dispatch = createDispatcher({
        execute: () => 'x',
        hooks: [
          { name: 'rename', beforeCall: () => ({ call: { name: 'renamed', arguments: {} } }) },
        ],
        approval: { request: () => 'allow-session' },
        sessionApprovals,
      });
      await dispatch(call, { sessionId: 'a' });
      expect(sessionApprovals.has('a', 'renamed')).toBe(true);
      expect(sessionApprovals.has('a', 'github_create_issue')).toBe(false);
    });
  });
});
