import { describe, expect, it } from 'vitest';
import { runStep } from './run-step.js';

const never = new AbortController().signal;
const hang = (signal: AbortSignal, seen: AbortSignal[]) => {
  seen.push(signal);
  return new Promise<never>(() => {});
};

describe('runStep', () => {
  it('gives the value of a step that returns or resolves', async () => {
    expect(await runStep(() => 1, 1_000, never)).toEqual({ kind: 'value', value: 1 });
    expect(await runStep(async () => 'two', 1_000, never)).toEqual({ kind: 'value', value: 'two' });
  });

  it('turns a throw and a rejection into a thrown outcome', async () => {
    const error = new Error('boom');
    const thrown = await runStep(
      () => {
        throw error;
      },
      1_000,
      never,
    );
    expect(thrown).toEqual({ kind: 'thrown', error });
    expect(await runStep(() => Promise.reject(error), 1_000, never)).toEqual({
      kind: 'thrown',
      error,
    });
  });

  it('times out a step that ignores its signal, and aborts that signal', async () => {
    const seen: AbortSignal[] = [];
    expect(await runStep((signal) => hang(signal, seen), 20, never)).toEqual({ kind: 'timeout' });
    expect(seen[0]?.aborted).toBe(true);
    expect(seen[0]?.reason).toMatchObject({
      code: 'timeout',
      message: 'Timed out after 20 ms',
      data: { timeoutMs: 20 },
    });
  });

  it('accepts a fractional timeout and one beyond what a timer holds', async () => {
    expect(await runStep(() => 1, 0.5, never)).toEqual({ kind: 'value', value: 1 });
    expect(await runStep(() => 2, 2 ** 40, never)).toEqual({ kind: 'value', value: 2 });
  });

  it('reports an abort of the parent, passes the abort on and does not wait for the step', async () => {
    const controller = new AbortController();
    const seen: AbortSignal[] = [];
    const outcome = runStep((signal) => hang(signal, seen), 60_000, controller.signal);
    controller.abort(new Error('stop'));
    expect(await outcome).toEqual({ kind: 'aborted' });
    expect(seen[0]?.aborted).toBe(true);
    expect(seen[0]?.reason).toEqual(new Error('stop'));
  });

  it('does not run the step when the parent is already aborted', async () => {
    let ran = false;
    const outcome = await runStep(
      () => {
        ran = true;
      },
      1_000,
      AbortSignal.abort(),
    );
    expect(outcome).toEqual({ kind: 'aborted' });
    expect(ran).toBe(false);
  });

  it('never times out with an infinite timeout', async () => {
    const outcome = await runStep(
      () => new Promise((resolve) => setTimeout(() => resolve('late'), 30)),
      Number.POSITIVE_INFINITY,
      never,
    );
    expect(outcome).toEqual({ kind: 'value', value: 'late' });
  });
});
