/** The pool's default time between retries of a failed server: 5 minutes. */
export const DEFAULT_RETRY_FAILED_MS = 300_000;

/** What `FailedServerRetry.demand` (the Reconnect of the operator console) did. */
export type RetryDemand =
  /** An attempt was started now. */
  | 'started'
  /** An attempt is already under way. */
  | 'in_progress'
  /** An attempt ended moments ago; the next one is on the schedule. */
  | 'recent';

/** Retries of servers the pool gave up on: on a slow schedule, and when a call needs one. */
export interface FailedServerRetry {
  /** A server was given up on: retry it every `intervalMs` until an attempt succeeds. */
  failed(server: string): void;
  /**
   * A call needs the server: start an attempt now unless one is under way or one ended
   * less than `minGapMs` ago.
   *
   * @returns what was done
   */
  demand(server: string): RetryDemand;
  /** Stops every timer; no attempt starts after this. */
  close(): void;
}

/** Options of {@link createFailedServerRetry}. */
export interface FailedServerRetryOptions {
  /** Time between scheduled attempts. */
  intervalMs: number;
  /** The shortest time between the end of one attempt and a demanded one. @defaultValue 5000 */
  minGapMs?: number;
  /** One reconnect attempt; resolves true when the server is back. Must not throw. */
  attempt: (server: string) => Promise<boolean>;
}

interface Entry {
  timer?: NodeJS.Timeout;
  running?: Promise<boolean>;
  endedAt?: number;
}

/**
 * Creates the retry schedule of failed upstream servers. One attempt per server runs
 * at a time; a server that comes back is forgotten; timers never keep the process alive.
 *
 * @param options - see {@link FailedServerRetryOptions}
 * @returns the schedule
 * @throws nothing
 */
export function createFailedServerRetry(options: FailedServerRetryOptions): FailedServerRetry {
  const minGapMs = options.minGapMs ?? 5_000;
  const entries = new Map<string, Entry>();
  let closed = false;

  const schedule = (server: string, entry: Entry) => {
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = setTimeout(() => {
      entry.timer = undefined;
      run(server, entry);
    }, options.intervalMs);
    entry.timer.unref?.();
  };

  const run = (server: string, entry: Entry) => {
    if (closed || entry.running) return;
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = undefined;
    entry.running = options.attempt(server).catch(() => false);
    void entry.running.then((ok) => {
      entry.running = undefined;
      entry.endedAt = performance.now();
      if (closed || entries.get(server) !== entry) return;
      if (ok) entries.delete(server);
      else schedule(server, entry);
    });
  };

  return {
    failed(server) {
      if (closed) return;
      let entry = entries.get(server);
      if (entry === undefined) {
        entry = {};
        entries.set(server, entry);
      }
      if (!entry.running) schedule(server, entry);
    },
    demand(server) {
      let entry = entries.get(server);
      if (entry === undefined) {
        entry = {};
        entries.set(server, entry);
      }
      if (entry.running) return 'in_progress';
      if (closed) return 'recent';
      if (entry.endedAt !== undefined && performance.now() - entry.endedAt < minGapMs) {
        return 'recent';
      }
      run(server, entry);
      return 'started';
    },
    close() {
      closed = true;
      for (const entry of entries.values()) if (entry.timer) clearTimeout(entry.timer);
      entries.clear();
    },
  };
}
