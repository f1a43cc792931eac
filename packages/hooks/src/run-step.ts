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
 * step's signal aborts with the parent's reason or with the timeout, whichever comes
 * first, so that a well-behaved step stops on either; a step that ignores it is left
 * behind with its rejection handled. The timeout aborts with a `ToolSearchError` of
 * code `timeout`. Once the step has settled, its signal no longer follows the parent.
 */
export function runStep<T>(
  fn: (signal: AbortSignal) => Promisable<T>,
  timeoutMs: number,
  parent: AbortSignal,
): Promise<StepOutcome<T>> {
  if (parent.aborted) return Promise.resolve({ kind: 'aborted' });
  // One controller that both the parent and the timer abort, not AbortSignal.any of two:
  // every AbortSignal is costly to make on Node 20, and a dispatch runs several steps.
  // Not AbortSignal.timeout: its timer cannot be cleared when the step ends first (every
  // dispatch would leave minutes-long timers behind), and fake timers do not drive it.
  const step = new AbortController();
  const { signal } = step;
  let timedOut = false;
  const timer = Number.isFinite(timeoutMs)
    ? setTimeout(
        () => {
          timedOut = true;
          step.abort(
            new ToolSearchError('timeout', `Timed out after ${timeoutMs} ms`, {
              data: { timeoutMs },
            }),
          );
        },
        Math.min(MAX_DELAY_MS, Math.max(0, timeoutMs)),
      )
    : undefined;
  const forward = () => step.abort(parent.reason);
  return new Promise<StepOutcome<T>>((resolve) => {
    const finish = (outcome: StepOutcome<T>) => {
      clearTimeout(timer);
      parent.removeEventListener('abort', forward);
      signal.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    // The first to abort gives the signal its reason: the timer only while it runs.
    const onAbort = () => finish(timedOut ? { kind: 'timeout' } : { kind: 'aborted' });
    signal.addEventListener('abort', onAbort, { once: true });
    parent.addEventListener('abort', forward, { once: true });
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
