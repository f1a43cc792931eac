import type { ToolCall, ToolDefinition } from '@tool-search/core';
import { ToolSearchError } from '@tool-search/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDispatcher, type DispatcherOptions } from './dispatcher.js';
import { createSessionApprovalStore } from './session-approvals.js';
import type {
  ApprovalAdapter,
  ApprovalRequest,
  DispatchContext,
  DispatchSettled,
  Guardrail,
  GuardrailVerdict,
  ToolCallHook,
} from './types.js';

// Generous: the machine running the tests may be busy; a pass never waits this long.
const WAIT = { timeout: 10_000 };

const call: ToolCall = { id: 'call-1', name: 'github_create_issue', arguments: { title: 'Bug' } };

const tool: ToolDefinition = {
  name: 'github_create_issue',
  inputSchema: { type: 'object', properties: { title: { type: 'string' } } },
  source: 'mcp',
  toolset: 'mcp-github',
};

/** Records every invocation in one log, so that tests can assert the order. */
function setup(overrides: Partial<DispatcherOptions> = {}) {
  const log: string[] = [];
  const guardrail = (
    name: string,
    verdict: () => unknown = () => ({ allow: true }),
  ): Guardrail => ({
    name,
    check: (seen) => {
      log.push(`guardrail ${name} ${seen.name}`);
      return verdict() as GuardrailVerdict;
    },
  });
  const hook = (name: string, methods: Partial<Omit<ToolCallHook, 'name'>> = {}): ToolCallHook => ({
    name,
    beforeCall: (seen, ctx) => {
      log.push(`before ${name} ${seen.name}`);
      return methods.beforeCall?.(seen, ctx);
    },
    afterCall: (seen, result, ctx) => {
      log.push(`after ${name} ${JSON.stringify(result)}`);
      return methods.afterCall?.(seen, result, ctx);
    },
    onError: (seen, error, ctx) => {
      log.push(`onError ${name}`);
      return methods.onError?.(seen, error, ctx);
    },
    onSettled: (settled, ctx) => {
      log.push(`settled ${name} ${settled.result.status}`);
      return methods.onSettled?.(settled, ctx);
    },
  });
  const approval = (
    answer: (request: ApprovalRequest) => unknown = () => 'allow-once',
  ): ApprovalAdapter => ({
    name: 'test-approval',
    request: (request) => {
      log.push(`approval ${request.call.name}`);
      return answer(request) as 'allow-once';
    },
  });
  const execute = vi.fn((seen: ToolCall, _ctx: DispatchContext): unknown => {
    log.push(`execute ${seen.name}`);
    return 'done';
  });
  return { log, guardrail, hook, approval, execute, options: { execute, ...overrides } };
}

describe('createDispatcher', () => {
  describe('order', () => {
    it('runs guardrails, beforeCall hooks in order, approval, execute, then afterCall and onSettled in reverse', async () => {
      const { log, guardrail, hook, approval, execute } = setup();
      const dispatch = createDispatcher({
        execute,
        guardrails: [guardrail('g1'), guardrail('g2')],
        hooks: [hook('h1'), hook('h2')],
        approval: approval(),
      });
      const result = await dispatch(call);
      expect(result).toEqual({ status: 'ok', call, result: 'done' });
      expect(log).toEqual([
        'guardrail g1 github_create_issue',
        'guardrail g2 github_create_issue',
        'before h1 github_create_issue',
        'before h2 github_create_issue',
        'approval github_create_issue',
        'execute github_create_issue',
        'after h2 "done"',
        'after h1 "done"',
        'settled h2 ok',
        'settled h1 ok',
      ]);
    });

    it('lets afterCall hooks replace the result, each seeing the previous replacement', async () => {
      const { log, hook, execute } = setup();
      const dispatch = createDispatcher({
        execute,
        hooks: [
          hook('outer', { afterCall: (_call, result) => ({ result: `${String(result)}!` }) }),
          hook('inner', {
            afterCall: (_call, result) => ({ result: String(result).toUpperCase() }),
          }),
        ],
      });
      const result = await dispatch(call);
      expect(result).toMatchObject({ status: 'ok', result: 'DONE!' });
      expect(log.filter((line) => line.startsWith('after'))).toEqual([
        'after inner "done"',
        'after outer "DONE"',
      ]);
    });

    it('lets a beforeCall hook rewrite the call for every later step, and checks the final call against the guardrails again', async () => {
      const { log, guardrail, hook, approval, execute } = setup();
      const dispatch = createDispatcher({
        execute,
        guardrails: [guardrail('g')],
        hooks: [
          hook('rename', {
            beforeCall: (seen) => ({ call: { ...seen, name: 'github_create_pull_request' } }),
          }),
          hook('observer'),
        ],
        approval: approval(),
      });
      const result = await dispatch(call);
      expect(result).toMatchObject({
        status: 'ok',
        call: { name: 'github_create_pull_request', arguments: { title: 'Bug' } },
      });
      expect(log.slice(0, 6)).toEqual([
        'guardrail g github_create_issue',
        'before rename github_create_issue',
        'before observer github_create_pull_request',
        'guardrail g github_create_pull_request',
        'approval github_create_pull_request',
        'execute github_create_pull_request',
      ]);
    });

    it('denies a rewrite that a guardrail refuses, so that a hook cannot carry a call past the guardrails', async () => {
      const { hook, execute } = setup();
      const dispatch = createDispatcher({
        execute,
        guardrails: [
          {
            name: 'no-delete',
            check: (seen) =>
              seen.name.includes('delete')
                ? { allow: false, reason: 'no deleting' }
                : { allow: true },
          },
        ],
        hooks: [
          hook('redirect', {
            beforeCall: () => ({ call: { name: 'repo_delete', arguments: {} } }),
          }),
        ],
      });
      expect(await dispatch(call)).toMatchObject({
        status: 'denied',
        by: { kind: 'guardrail', name: 'no-delete' },
        reason: 'no deleting',
        call: { name: 'repo_delete' },
      });
      expect(execute).not.toHaveBeenCalled();
    });

    it('passes the context on with viaBridge, the tool and a signal', async () => {
      const { execute } = setup();
      const seen: DispatchContext[] = [];
      const dispatch = createDispatcher({
        execute,
        guardrails: [
          {
            name: 'g',
            check: (_call, ctx) => {
              seen.push(ctx);
              return { allow: true };
            },
          },
        ],
        resolveTool: (name) => (name === tool.name ? tool : undefined),
      });
      await dispatch(call, { sessionId: 's1' });
      await dispatch(call, { viaBridge: true });
      expect(seen[0]).toMatchObject({ sessionId: 's1', viaBridge: false, tool });
      expect(seen[0]?.signal).toBeInstanceOf(AbortSignal);
      expect(seen[1]).toMatchObject({ viaBridge: true, tool });
      expect(execute.mock.calls[0]?.[1]).toMatchObject({ sessionId: 's1', tool });
    });

    it('looks the tool up again when a hook renames the call', async () => {
      const other: ToolDefinition = { ...tool, name: 'other', toolset: 'mcp-other' };
      const { hook, execute } = setup();
      const dispatch = createDispatcher({
        execute,
        hooks: [hook('rename', { beforeCall: () => ({ call: { name: 'other', arguments: {} } }) })],
        resolveTool: (name) => [tool, other].find((candidate) => candidate.name === name),
      });
      await dispatch(call);
      expect(execute.mock.calls[0]?.[1].tool).toBe(other);
    });

    it('drops a context tool that no longer matches a renamed call when there is no resolveTool', async () => {
      const { hook, execute } = setup();
      const dispatch = createDispatcher({
        execute,
        hooks: [hook('rename', { beforeCall: () => ({ call: { name: 'other', arguments: {} } }) })],
      });
      await dispatch(call, { tool });
      expect(execute.mock.calls[0]?.[1].tool).toBeUndefined();
    });
  });

  describe('denials', () => {
    it('stops at the first guardrail that refuses and says which and why', async () => {
      const { log, guardrail, hook, approval, execute } = setup();
      const dispatch = createDispatcher({
        execute,
        guardrails: [
          guardrail('first'),
          guardrail('policy', () => ({ allow: false, reason: 'not on the list' })),
          guardrail('never'),
        ],
        hooks: [hook('h')],
        approval: approval(),
      });
      expect(await dispatch(call)).toEqual({
        status: 'denied',
        call,
        by: { kind: 'guardrail', name: 'policy' },
        reason: 'not on the list',
      });
      expect(log).toEqual([
        'guardrail first github_create_issue',
        'guardrail policy github_create_issue',
        'settled h denied',
      ]);
    });

    it('lets a beforeCall hook deny, before approval and execution', async () => {
      const { log, hook, approval, execute } = setup();
      const dispatch = createDispatcher({
        execute,
        hooks: [hook('h1', { beforeCall: () => ({ deny: 'outside working hours' }) }), hook('h2')],
        approval: approval(),
      });
      expect(await dispatch(call)).toMatchObject({
        status: 'denied',
        by: { kind: 'hook', name: 'h1' },
        reason: 'outside working hours',
      });
      expect(log).toEqual([
        'before h1 github_create_issue',
        'settled h2 denied',
        'settled h1 denied',
      ]);
    });

    it('reports an approval that answers deny, with its reason or a default one', async () => {
      const { approval, execute } = setup();
      const withReason = createDispatcher({
        execute,
        approval: approval(() => ({ decision: 'deny', reason: 'not today' })),
      });
      expect(await withReason(call)).toMatchObject({
        status: 'denied',
        by: { kind: 'approval', name: 'test-approval' },
        reason: 'not today',
      });
      const plain = createDispatcher({ execute, approval: { request: () => 'deny' } });
      expect(await plain(call)).toMatchObject({
        status: 'denied',
        by: { kind: 'approval', name: 'approval' },
        reason: "The call to 'github_create_issue' was not approved.",
      });
      expect(execute).not.toHaveBeenCalled();
    });

    it('asks no one when there is no approval adapter', async () => {
      const { execute } = setup();
      expect(await createDispatcher({ execute })(call)).toMatchObject({ status: 'ok' });
    });
  });

  describe('fail closed', () => {
    const failures: [string, () => unknown][] = [
      [
        'throws',
        () => {
          throw new Error('boom');
        },
      ],
      ['rejects', () => Promise.reject(new Error('boom'))],
      ['answers garbage', () => ({ ok: 'sure' })],
      ['answers nothing', () => undefined],
    ];

    for (const [what, behaviour] of failures) {
      it(`denies when a guardrail ${what}`, async () => {
        const { guardrail, execute } = setup();
        const dispatch = createDispatcher({ execute, guardrails: [guardrail('flaky', behaviour)] });
        const result = await dispatch(call);
        expect(result).toMatchObject({
          status: 'denied',
          by: { kind: 'guardrail', name: 'flaky' },
        });
        expect(result.status === 'denied' && result.reason).toContain('fail closed');
        expect(execute).not.toHaveBeenCalled();
      });

      it(`denies when the approval ${what}`, async () => {
        const { approval, execute } = setup();
        const dispatch = createDispatcher({ execute, approval: approval(behaviour) });
        const result = await dispatch(call);
        expect(result).toMatchObject({
          status: 'denied',
          by: { kind: 'approval', name: 'test-approval' },
        });
        expect(result.status === 'denied' && result.reason).toContain('fail closed');
        expect(execute).not.toHaveBeenCalled();
      });
    }

    it('says what a failing guardrail threw', async () => {
      const { guardrail, execute } = setup();
      const dispatch = createDispatcher({
        execute,
        guardrails: [
          guardrail('flaky', () => {
            throw new Error('database unreachable');
          }),
        ],
      });
      expect(await dispatch(call)).toMatchObject({
        reason:
          "Guardrail 'flaky' failed: database unreachable, so the call to 'github_create_issue' is denied (guardrails fail closed).",
      });
    });

    it('gives a reason when a guardrail refuses without one', async () => {
      const { guardrail, execute } = setup();
      const dispatch = createDispatcher({
        execute,
        guardrails: [guardrail('terse', () => ({ allow: false }))],
      });
      expect(await dispatch(call)).toMatchObject({
        reason: "Guardrail 'terse' denied the call to 'github_create_issue'.",
      });
    });

    it('denies when a beforeCall hook throws, rejects, answers garbage or rewrites into an invalid call', async () => {
      const { hook, execute } = setup();
      const behaviours: (() => unknown)[] = [
        () => {
          throw new Error('boom');
        },
        () => Promise.reject(new Error('boom')),
        () => ({ maybe: true }),
        () => ({ call: { name: '', arguments: {} } }),
        () => ({ call: { name: 'x', arguments: 'not an object' } }),
      ];
      for (const behaviour of behaviours) {
        const dispatch = createDispatcher({
          execute,
          hooks: [hook('flaky', { beforeCall: behaviour as ToolCallHook['beforeCall'] })],
        });
        expect(await dispatch(call)).toMatchObject({
          status: 'denied',
          by: { kind: 'hook', name: 'flaky' },
        });
      }
      expect(execute).not.toHaveBeenCalled();
    });

    it('turns a throwing execute into an error result and runs onError hooks in reverse', async () => {
      const { log, hook } = setup();
      const thrown = new Error('rate limited');
      const onErrorSeen: unknown[] = [];
      const dispatch = createDispatcher({
        execute: () => {
          throw thrown;
        },
        hooks: [
          hook('h1', { onError: (_call, error) => void onErrorSeen.push(error) }),
          hook('h2'),
        ],
      });
      const result = await dispatch(call);
      expect(result).toEqual({
        status: 'error',
        call,
        error: { code: 'tool_failed', message: "Tool 'github_create_issue' failed: rate limited" },
      });
      expect(result.status === 'error' && result.error.cause).toBe(thrown);
      expect(JSON.parse(JSON.stringify(result))).toEqual({
        status: 'error',
        call,
        error: { code: 'tool_failed', message: "Tool 'github_create_issue' failed: rate limited" },
      });
      expect(onErrorSeen).toEqual([thrown]);
      expect(log).toEqual([
        'before h1 github_create_issue',
        'before h2 github_create_issue',
        'onError h2',
        'onError h1',
        'settled h2 error',
        'settled h1 error',
      ]);
    });

    it('keeps the code of a thrown ToolSearchError', async () => {
      const dispatch = createDispatcher({
        execute: async () => {
          throw new ToolSearchError('upstream_failed', "Upstream 'github' is down");
        },
      });
      expect(await dispatch(call)).toMatchObject({
        status: 'error',
        error: {
          code: 'upstream_failed',
          message: "Tool 'github_create_issue' failed: Upstream 'github' is down",
        },
      });
    });

    it('keeps the result when an afterCall hook throws, and names the hook in warnings', async () => {
      const { hook, execute } = setup();
      const dispatch = createDispatcher({
        execute,
        hooks: [
          hook('fine', { afterCall: (_call, result) => ({ result: `${String(result)}.` }) }),
          hook('broken', {
            afterCall: () => {
              throw new Error('oops');
            },
          }),
        ],
      });
      expect(await dispatch(call)).toEqual({
        status: 'ok',
        call,
        result: 'done.',
        warnings: ["afterCall hook 'broken' failed: oops; it was skipped."],
      });
    });

    it('keeps the error result when an onError hook throws, and when an onSettled hook rejects', async () => {
      const { hook } = setup();
      const dispatch = createDispatcher({
        execute: () => Promise.reject(new Error('down')),
        hooks: [
          hook('audit', { onSettled: () => Promise.reject(new Error('disk full')) }),
          hook('broken', {
            onError: () => {
              throw new Error('oops');
            },
          }),
        ],
      });
      expect(await dispatch(call)).toMatchObject({
        status: 'error',
        error: { code: 'tool_failed' },
        warnings: [
          "onError hook 'broken' failed: oops; it was skipped.",
          "onSettled hook 'audit' failed: disk full; it was skipped.",
        ],
      });
    });

    it('answers a malformed call with an error and invokes nothing but onSettled', async () => {
      const { log, guardrail, hook, execute } = setup();
      const dispatch = createDispatcher({
        execute,
        guardrails: [guardrail('g')],
        hooks: [hook('h')],
      });
      for (const bad of [
        null,
        'x',
        { name: '' },
        { name: 'x', arguments: [1] },
        { name: 'x', arguments: 'json' },
      ]) {
        const result = await dispatch(bad as unknown as ToolCall);
        expect(result).toMatchObject({ status: 'error', error: { code: 'invalid_argument' } });
      }
      expect(log).toEqual(Array(5).fill('settled h error'));
    });

    it('reads absent or null arguments as an empty object', async () => {
      const { execute } = setup();
      const dispatch = createDispatcher({ execute });
      await dispatch({ name: 'ping', arguments: null } as unknown as ToolCall);
      await dispatch({ name: 'ping' } as unknown as ToolCall);
      expect(execute.mock.calls.map(([seen]) => seen)).toEqual([
        { name: 'ping', arguments: {} },
        { name: 'ping', arguments: {} },
      ]);
    });

    it('answers an error when resolveTool throws, and calls nothing', async () => {
      const { execute } = setup();
      const dispatch = createDispatcher({
        execute,
        resolveTool: () => {
          throw new Error('registry offline');
        },
      });
      expect(await dispatch(call)).toMatchObject({
        status: 'error',
        error: { code: 'tool_lookup_failed' },
      });
      expect(execute).not.toHaveBeenCalled();
    });

    it('throws on malformed options at creation', () => {
      const execute = () => 'x';
      expect(() => createDispatcher({} as DispatcherOptions)).toThrow(/execute must be a function/);
      expect(() => createDispatcher({ execute, guardrails: [{ name: 'g' } as Guardrail] })).toThrow(
        /guardrail/,
      );
      expect(() => createDispatcher({ execute, hooks: [{} as ToolCallHook] })).toThrow(
        /hook needs a name/,
      );
      expect(() => createDispatcher({ execute, approval: {} as ApprovalAdapter })).toThrow(
        /request/,
      );
      expect(() => createDispatcher({ execute, timeouts: { guardrail: 0 } })).toThrow(
        /timeouts.guardrail/,
      );
      expect(() => createDispatcher({ execute, timeouts: { execute: Number.NaN } })).toThrow(
        /timeouts.execute/,
      );
    });
  });

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

  it('gives the approval adapter the call, the tool, the session and viaBridge', async () => {
    const requests: ApprovalRequest[] = [];
    const dispatch = createDispatcher({
      execute: () => 'x',
      approval: {
        request: (request) => {
          requests.push(request);
          return 'allow-once';
        },
      },
    });
    await dispatch(call, { sessionId: 's', viaBridge: true, tool });
    expect(requests[0]).toMatchObject({ call, tool, sessionId: 's', viaBridge: true });
  });

  it('produces results that survive JSON', async () => {
    const dispatch = createDispatcher({
      execute: () => ({ content: [{ type: 'text', text: 'hi' }] }),
      guardrails: [
        {
          name: 'g',
          check: (seen) => (seen.name === 'x' ? { allow: false, reason: 'r' } : { allow: true }),
        },
      ],
    });
    for (const result of [await dispatch(call), await dispatch({ name: 'x', arguments: {} })]) {
      expect(JSON.parse(JSON.stringify(result))).toEqual(result);
    }
  });
});
