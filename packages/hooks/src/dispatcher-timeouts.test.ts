import { ToolSearchError } from '@tool-search/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { call, setup, WAIT } from './__fixtures__/dispatcher-setup.js';
import { createDispatcher } from './dispatcher.js';
import type { ApprovalRequest, DispatchSettled } from './types.js';

describe('createDispatcher', () => {
  describe('timeouts (fake timers)', () => {
    beforeEach(() => {
      vi.useFakeTimers();
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    const hang = () => new Promise<never>(() => {});

    it('denies when a guardrail does not answer in time, and aborts its signal', async () => {
      const { execute } = setup();
      let signal: AbortSignal | undefined;
      const dispatch = createDispatcher({
        execute,
        guardrails: [
          {
            name: 'slow',
            check: (_call, ctx) => {
              signal = ctx.signal;
              return hang();
            },
          },
        ],
        timeouts: { guardrail: 1000 },
      });
      const pending = dispatch(call);
      await vi.advanceTimersByTimeAsync(999);
      expect(signal?.aborted).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await pending).toMatchObject({
        status: 'denied',
        by: { kind: 'guardrail', name: 'slow' },
        reason:
          "Guardrail 'slow' did not answer within 1000 ms, so the call to 'github_create_issue' is denied (guardrails fail closed).",
      });
      expect(signal?.aborted).toBe(true);
      expect(execute).not.toHaveBeenCalled();
    });

    it('denies when the approval does not answer in time (5 minutes by default)', async () => {
      const { execute } = setup();
      let request: ApprovalRequest | undefined;
      const dispatch = createDispatcher({
        execute,
        approval: {
          name: 'human',
          request: (req) => {
            request = req;
            return hang();
          },
        },
      });
      const pending = dispatch(call);
      await vi.advanceTimersByTimeAsync(299_999);
      expect(request?.signal.aborted).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await pending).toMatchObject({
        status: 'denied',
        by: { kind: 'approval', name: 'human' },
        reason:
          "Approval 'human' did not answer within 300000 ms, so the call to 'github_create_issue' is denied (approvals fail closed).",
      });
      expect(request?.signal.aborted).toBe(true);
    });

    it('denies when a beforeCall hook hangs', async () => {
      const { hook, execute } = setup();
      const dispatch = createDispatcher({
        execute,
        hooks: [hook('slow', { beforeCall: hang })],
        timeouts: { hook: 50 },
      });
      const pending = dispatch(call);
      await vi.advanceTimersByTimeAsync(50);
      expect(await pending).toMatchObject({ status: 'denied', by: { kind: 'hook', name: 'slow' } });
    });

    it('skips an afterCall or onSettled hook that hangs and keeps the result', async () => {
      const { hook, execute } = setup();
      const dispatch = createDispatcher({
        execute,
        hooks: [hook('slow-audit', { onSettled: hang }), hook('slow-after', { afterCall: hang })],
        timeouts: { hook: 50 },
      });
      const pending = dispatch(call);
      await vi.advanceTimersByTimeAsync(100);
      expect(await pending).toEqual({
        status: 'ok',
        call,
        result: 'done',
        warnings: [
          "afterCall hook 'slow-after' did not answer within 50 ms; it was skipped.",
          "onSettled hook 'slow-audit' did not answer within 50 ms; it was skipped.",
        ],
      });
    });

    it('aborts an execution that runs out of time and answers an error', async () => {
      let signal: AbortSignal | undefined;
      const errors: unknown[] = [];
      const dispatch = createDispatcher({
        execute: (_call, ctx) => {
          signal = ctx.signal;
          return hang();
        },
        hooks: [{ name: 'h', onError: (_call, error) => void errors.push(error) }],
        timeouts: { execute: 2000 },
      });
      const pending = dispatch(call);
      await vi.advanceTimersByTimeAsync(2000);
      expect(await pending).toMatchObject({
        status: 'error',
        error: {
          code: 'tool_timeout',
          message: "Tool 'github_create_issue' did not finish within 2000 ms and was aborted.",
        },
      });
      expect(signal?.aborted).toBe(true);
      expect(ToolSearchError.isInstance(errors[0]) && errors[0].code).toBe('tool_timeout');
      expect((errors[0] as ToolSearchError).data).toEqual({
        tool: 'github_create_issue',
        timeoutMs: 2000,
      });
    });

    it('lets an execution run as long as it needs by default', async () => {
      const dispatch = createDispatcher({
        execute: () => new Promise((resolve) => setTimeout(() => resolve('late'), 3_600_000)),
      });
      const pending = dispatch(call);
      await vi.advanceTimersByTimeAsync(3_600_000);
      expect(await pending).toMatchObject({ status: 'ok', result: 'late' });
    });

    it('leaves no unhandled rejection behind when a timed-out step rejects later', async () => {
      const unhandled = vi.fn();
      process.on('unhandledRejection', unhandled);
      try {
        const rejectLater = () =>
          new Promise<never>((_, reject) => setTimeout(() => reject(new Error('late')), 5000));
        const denied = createDispatcher({
          execute: () => 'x',
          guardrails: [{ name: 'late', check: rejectLater }],
          hooks: [{ name: 'late', afterCall: rejectLater, onSettled: rejectLater }],
          timeouts: { guardrail: 10, hook: 10 },
        });
        const failed = createDispatcher({
          execute: rejectLater,
          hooks: [{ name: 'late', onError: rejectLater }],
          timeouts: { execute: 10, hook: 10 },
        });
        const pending = [denied(call), failed(call)];
        await vi.advanceTimersByTimeAsync(100);
        expect(await pending[0]).toMatchObject({ status: 'denied' });
        expect(await pending[1]).toMatchObject({
          status: 'error',
          error: { code: 'tool_timeout' },
        });
        await vi.runAllTimersAsync();
        vi.useRealTimers();
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect(unhandled).not.toHaveBeenCalled();
      } finally {
        process.off('unhandledRejection', unhandled);
      }
    });
  });

  describe('abort', () => {
    it('cancels before anything runs when the signal is already aborted', async () => {
      const { log, guardrail, hook, execute } = setup();
      const dispatch = createDispatcher({
        execute,
        guardrails: [guardrail('g')],
        hooks: [hook('h')],
      });
      const result = await dispatch(call, { signal: AbortSignal.abort() });
      expect(result).toEqual({
        status: 'cancelled',
        call,
        reason: "The call to 'github_create_issue' was cancelled before it ran.",
      });
      expect(log).toEqual(['settled h cancelled']);
    });

    it('cancels a waiting approval and aborts its signal', async () => {
      const { execute } = setup();
      const controller = new AbortController();
      let request: ApprovalRequest | undefined;
      const dispatch = createDispatcher({
        execute,
        approval: {
          request: (req) => {
            request = req;
            return new Promise(() => {});
          },
        },
      });
      const pending = dispatch(call, { signal: controller.signal });
      await vi.waitFor(() => expect(request).toBeDefined(), WAIT);
      controller.abort();
      expect(await pending).toMatchObject({
        status: 'cancelled',
        reason: "The call to 'github_create_issue' was cancelled while waiting for approval.",
      });
      expect(request?.signal.aborted).toBe(true);
      expect(execute).not.toHaveBeenCalled();
    });

    it('aborts the execution, even one that ignores its signal', async () => {
      const controller = new AbortController();
      let signal: AbortSignal | undefined;
      const { hook } = setup();
      const after = vi.fn();
      const dispatch = createDispatcher({
        execute: (_call, ctx) => {
          signal = ctx.signal;
          return new Promise((resolve) => setTimeout(resolve, 60_000));
        },
        hooks: [hook('h', { afterCall: after })],
      });
      const pending = dispatch(call, { signal: controller.signal });
      await vi.waitFor(() => expect(signal).toBeDefined(), WAIT);
      controller.abort();
      expect(await pending).toMatchObject({
        status: 'cancelled',
        reason: "The call to 'github_create_issue' was cancelled while it ran.",
      });
      expect(signal?.aborted).toBe(true);
      expect(after).not.toHaveBeenCalled();
    });

    it('cancels a waiting guardrail', async () => {
      const controller = new AbortController();
      const { execute } = setup();
      let started = false;
      const dispatch = createDispatcher({
        execute,
        guardrails: [
          {
            name: 'slow',
            check: () => {
              started = true;
              return new Promise(() => {});
            },
          },
        ],
      });
      const pending = dispatch(call, { signal: controller.signal });
      await vi.waitFor(() => expect(started).toBe(true), WAIT);
      controller.abort();
      expect(await pending).toMatchObject({ status: 'cancelled' });
    });

    it('still gives onSettled hooks every cancelled call', async () => {
      const settled: DispatchSettled[] = [];
      const dispatch = createDispatcher({
        execute: () => 'x',
        hooks: [{ name: 'audit', onSettled: (record) => void settled.push(record) }],
      });
      await dispatch(call, { signal: AbortSignal.abort() });
      expect(settled).toHaveLength(1);
      expect(settled[0]).toMatchObject({ executed: false, result: { status: 'cancelled' } });
    });
  });
});
