import type { ToolCall } from '@tool-search/core';
import { ToolSearchError } from '@tool-search/core';
import { describe, expect, it } from 'vitest';
import { call, setup } from './__fixtures__/dispatcher-setup.js';
import { createDispatcher, type DispatcherOptions } from './dispatcher.js';
import type { ApprovalAdapter, Guardrail, ToolCallHook } from './types.js';

// A tool may throw the code of any package that registered one (mcp's pool throws
// `upstream_failed`); the dispatcher passes it through unchanged.
declare module '@tool-search/core' {
  interface ToolSearchErrorCodeRegistry {
    upstream_failed: true;
  }
}

describe('createDispatcher', () => {
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
});
