import type { Promisable } from '@tool-search/core';
import { ToolSearchError } from '@tool-search/core';

/** How one step of the pipeline ended. */
export type StepOutcome<T> =
  | { kind: 'value'; value: T }
  | { kind: 'thrown'; error: unknown }
  | { kind: 'timeout' }
  | { kind: 'aborted' };

// setTimeout fires at once beyond this (about 24.8 days).
const MAX_DELAY_MS = 2 ** 31 - 1;

/**
 * Runs `fn` with its own signal and races it against `timeoutMs` and `parent`. Never
 * rejects: a throw, a rejection, a timeout or an abort each become an outcome. The
 * step's signal is `AbortSignal.any([parent, timeout])`, so that a well-behaved step
 * stops on either; a step that ignores it is left behind with its rejection handled.
 * The timeout aborts with a `ToolSearchError` of code `timeout`.
 */
export function runStep<T>(
  fn: (signal: AbortSignal) => Promisable<T>,
  timeoutMs: number,
  parent: AbortSignal,
): Promise<StepOutcome<T>> {
  if (parent.aborted) return Promise.resolve({ kind: 'aborted' });
  // Not AbortSignal.timeout: its timer cannot be cleared when the step ends first (every
  // dispatch would leave minutes-long timers behind), and fake timers do not drive it.
  const timeout = new AbortController();
  const timer = Number.isFinite(timeoutMs)
    ? setTimeout(
        () =>
          timeout.abort(
            new ToolSearchError('timeout', `Timed out after ${timeoutMs} ms`, {
              data: { timeoutMs },
            }),
          ),
        Math.min(MAX_DELAY_MS, Math.max(0, timeoutMs)),
      )
    : undefined;
  const signal = AbortSignal.any([parent, timeout.signal]);
  return new Promise<StepOutcome<T>>((resolve) => {
    const finish = (outcome: StepOutcome<T>) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    // The combined signal keeps the reason of the source that aborted first.
    const onAbort = () =>
      finish(
        timeout.signal.aborted && signal.reason === timeout.signal.reason
          ? { kind: 'timeout' }
          : { kind: 'aborted' },
      );
    signal.addEventListener('abort', onAbort, { once: true });
    let pending: Promisable<T>;
    try {
      pending = fn(signal);
    } catch (error) {
      finish({ kind: 'thrown', error });
      return;
    }
    Promise.resolve(pending).then(
      (value) => finish({ kind: 'value', value }),
      (error: unknown) => finish({ kind: 'thrown', error }),
    );
  });
}
