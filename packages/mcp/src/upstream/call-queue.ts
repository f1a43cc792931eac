/** A slot taken from a {@link CallQueue}, or why none was given. */
export type CallQueueTicket =
  | {
      /** The call may run; it must `release()` the slot when it settles. */
      ok: true;
      /** Milliseconds spent waiting for the slot. */
      waitedMs: number;
      /** Gives the slot to the next call in line (idempotent). */
      release(): void;
    }
  | {
      /** No slot: the call must not run. */
      ok: false;
      /** `aborted`: the caller's signal fired; `timeout`: no slot within `timeoutMs`. */
      reason: 'aborted' | 'timeout';
      /** Milliseconds spent waiting. */
      waitedMs: number;
      /** How many calls were ahead of this one when it gave up. */
      ahead: number;
    };

/** A first-in, first-out limit on the calls that run at once on one upstream server. */
export interface CallQueue {
  /** The most calls that run at once. */
  readonly limit: number;
  /** Calls running now. */
  running(): number;
  /** Calls waiting for a slot. */
  waiting(): number;
  /**
   * Waits for a slot, in arrival order. A waiting call leaves the line when its signal
   * fires or its time runs out; it never throws.
   *
   * @param options.signal - stops waiting (the ticket says `aborted`)
   * @param options.timeoutMs - the longest wait (the ticket says `timeout`); absent: no limit
   * @returns a ticket: a slot to release, or why there is none
   * @throws nothing
   */
  acquire(options?: { signal?: AbortSignal; timeoutMs?: number }): Promise<CallQueueTicket>;
}

interface Waiter {
  grant: () => void;
}

/**
 * Creates a FIFO queue that lets at most `limit` calls run at once: the per-upstream
 * `maxConcurrency` of the pool, for servers that are not safe under concurrent calls.
 *
 * @param limit - the most calls at once, a positive integer
 * @returns the queue
 * @throws RangeError when `limit` is not a positive integer
 */
export function createCallQueue(limit: number): CallQueue {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new RangeError(`maxConcurrency must be a positive integer, got ${limit}`);
  }
  let active = 0;
  const line: Waiter[] = [];

  const slot = (began: number): CallQueueTicket => {
    let released = false;
    return {
      ok: true,
      waitedMs: Math.round(performance.now() - began),
      release() {
        if (released) return;
        released = true;
        const next = line.shift();
        // The slot passes straight to the next in line, so no late arrival can jump it.
        if (next) next.grant();
        else active -= 1;
      },
    };
  };

  return {
    limit,
    running: () => active,
    waiting: () => line.length,
    acquire(options = {}) {
      const began = performance.now();
      if (options.signal?.aborted) {
        return Promise.resolve({ ok: false, reason: 'aborted', waitedMs: 0, ahead: line.length });
      }
      if (active < limit && line.length === 0) {
        active += 1;
        return Promise.resolve(slot(began));
      }
      return new Promise<CallQueueTicket>((resolve) => {
        let timer: NodeJS.Timeout | undefined;
        const leave = (reason: 'aborted' | 'timeout') => {
          const position = line.indexOf(waiter);
          if (position === -1) return;
          line.splice(position, 1);
          finish();
          resolve({
            ok: false,
            reason,
            waitedMs: Math.round(performance.now() - began),
            ahead: position,
          });
        };
        const onAbort = () => leave('aborted');
        const finish = () => {
          if (timer) clearTimeout(timer);
          options.signal?.removeEventListener('abort', onAbort);
        };
        const waiter: Waiter = {
          grant: () => {
            finish();
            resolve(slot(began));
          },
        };
        line.push(waiter);
        options.signal?.addEventListener('abort', onAbort, { once: true });
        if (options.timeoutMs !== undefined) {
          timer = setTimeout(() => leave('timeout'), options.timeoutMs);
        }
      });
    },
  };
}
