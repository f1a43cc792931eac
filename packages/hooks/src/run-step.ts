import type { Promisable } from '@tool-search/core';
import { ToolSearchError } from '@tool-search/core';

/** How one step of the pipeline ended. */
export type StepOutcome<T> =
  | { kind: 'value'; value: T }
  | { kind: 'thrown'; error: unknown }
  | { kind: 'timeout' }
  | { kind: 'aborted' };

/**
 * Runs `fn` with its own signal and races it against `timeoutMs` and `parent`. Never
 * rejects: a throw, a rejection, a timeout or an abort each become an outcome. On a
 * timeout or an abort the step's signal aborts, so that a well-behaved step stops; a
 * step that ignores it is left behind with its rejection handled.
 */
export function runStep<T>(
  fn: (signal: AbortSignal) => Promisable<T>,
  timeoutMs: number,
  parent: AbortSignal,
): Promise<StepOutcome<T>> {
  if (parent.aborted) return Promise.resolve({ kind: 'aborted' });
  const controller = new AbortController();
  return new Promise<StepOutcome<T>>((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (outcome: StepOutcome<T>) => {
      if (timer !== undefined) clearTimeout(timer);
      parent.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    const onAbort = () => {
      controller.abort(parent.reason);
      finish({ kind: 'aborted' });
    };
    parent.addEventListener('abort', onAbort, { once: true });
    if (Number.isFinite(timeoutMs)) {
      timer = setTimeout(() => {
        controller.abort(new ToolSearchError('timeout', `Timed out after ${timeoutMs} ms`));
        finish({ kind: 'timeout' });
      }, timeoutMs);
    }
    let pending: Promisable<T>;
    try {
      pending = fn(controller.signal);
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
