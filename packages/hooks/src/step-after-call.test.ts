import { describe, expect, it, vi } from 'vitest';
import { call, configOf, stateOf } from './__fixtures__/call-state.js';
import { dispatchError } from './dispatch-errors.js';
import { runAfterHooks } from './step-after-call.js';
import type { ToolCallHook } from './types.js';

const executed = (value: unknown) =>
  stateOf({ executed: true, execution: { kind: 'value', value } });

describe('runAfterHooks', () => {
  it('runs afterCall hooks in reverse, each seeing the previous replacement', async () => {
    const next = await runAfterHooks(
      executed('done'),
      configOf({
        hooks: [
          { name: 'outer', afterCall: (_call, result) => ({ result: `${String(result)}!` }) },
          {
            name: 'inner',
            afterCall: (_call, result) => ({ result: String(result).toUpperCase() }),
          },
        ],
      }),
    );
    expect(next.result).toEqual({ status: 'ok', call, result: 'DONE!' });
  });

  it('skips a failing or confused afterCall hook, keeps the result and names it in the warnings', async () => {
    const hooks: ToolCallHook[] = [
      { name: 'confused', afterCall: () => ({ maybe: 1 }) as never },
      {
        name: 'broken',
        afterCall: () => {
          throw new Error('oops');
        },
      },
    ];
    const next = await runAfterHooks(executed('done'), configOf({ hooks }));
    expect(next.result).toEqual({ status: 'ok', call, result: 'done' });
    expect(next.warnings).toEqual([
      "afterCall hook 'broken' failed: oops; it was skipped.",
      "afterCall hook 'confused' answered something unknown; it was ignored.",
    ]);
  });

  it('runs onError hooks after a failure and answers the error', async () => {
    const thrown = new Error('down');
    const error = dispatchError(
      'tool_failed',
      "Tool 'memory_delete_entities' failed: down",
      thrown,
    );
    const seen: unknown[] = [];
    const next = await runAfterHooks(
      stateOf({ executed: true, execution: { kind: 'failed', thrown, error } }),
      configOf({ hooks: [{ name: 'h', onError: (_call, value) => void seen.push(value) }] }),
    );
    expect(next.result).toEqual({ status: 'error', call, error });
    expect(seen).toEqual([thrown]);
  });

  it('cancels rather than hand back a result whose afterCall hooks did not all run', async () => {
    const controller = new AbortController();
    const later = vi.fn();
    const state = stateOf(
      { executed: true, execution: { kind: 'value', value: 'secret' } },
      { signal: controller.signal },
    );
    const next = await runAfterHooks(
      state,
      configOf({
        hooks: [
          { name: 'redact', afterCall: later },
          { name: 'aborts', afterCall: () => controller.abort() },
        ],
      }),
    );
    expect(next.result).toEqual({
      status: 'cancelled',
      call,
      reason: "The call to 'memory_delete_entities' was cancelled after it ran.",
    });
    expect(later).not.toHaveBeenCalled();
  });

  it('returns the state unchanged when nothing was executed', async () => {
    const state = stateOf();
    expect(
      await runAfterHooks(state, configOf({ hooks: [{ name: 'h', afterCall: vi.fn() }] })),
    ).toBe(state);
  });
});
