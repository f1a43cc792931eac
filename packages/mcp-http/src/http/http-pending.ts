import type { ServerResponse } from 'node:http';

/** The requests whose response has not closed: what a graceful close waits for. */
export interface PendingRequests {
  /** Counts a response until it closes. */
  track(res: ServerResponse): void;
  /**
   * Waits until no tracked response is open, or `graceMs` passed.
   *
   * @returns at once when none is open or `graceMs` is 0
   */
  settled(graceMs: number): Promise<void>;
}

/**
 * Creates the tracker of open responses of a listener.
 *
 * @returns the tracker
 * @throws nothing
 */
export function createPendingRequests(): PendingRequests {
  let pending = 0;
  const waiters = new Set<() => void>();
  return {
    track(res) {
      pending += 1;
      res.once('close', () => {
        pending -= 1;
        if (pending === 0) for (const settle of waiters) settle();
      });
    },
    async settled(graceMs) {
      if (pending === 0 || graceMs <= 0) return;
      let settle = () => {};
      const settled = new Promise<void>((resolve) => {
        settle = resolve;
      });
      waiters.add(settle);
      const timer = setTimeout(settle, graceMs);
      await settled;
      clearTimeout(timer);
      waiters.delete(settle);
    },
  };
}
