import type { ToolDefinition } from '@tool-search/core';
import { describe, expect, it } from 'vitest';
import { call, setup, tool } from './__fixtures__/dispatcher-setup.js';
import { createDispatcher } from './dispatcher.js';
import type { ApprovalRequest, DispatchContext } from './types.js';

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

    it('passes the context on with via, the tool and a signal', async () => {
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
      await dispatch(call, { via: 'bridge' });
      expect(seen[0]).toMatchObject({ sessionId: 's1', via: 'direct', tool });
      expect(seen[0]?.signal).toBeInstanceOf(AbortSignal);
      expect(seen[1]).toMatchObject({ via: 'bridge', tool });
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

  it('gives the approval adapter the call, the tool, the session and via', async () => {
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
    await dispatch(call, { sessionId: 's', via: 'bridge', tool });
    expect(requests[0]).toMatchObject({ call, tool, sessionId: 's', via: 'bridge' });
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
