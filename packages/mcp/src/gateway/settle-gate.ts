/**
 * When a gateway takes its sessions' first activation decision: once the upstreams'
 * first connect round is over, or its deadline has passed, whichever comes first. Before
 * that, the pool's tool list is partial (the deferrable size is not yet known), so a
 * decision taken on it would show a client the whole list, then the bridge.
 */
export interface SettleGate {
  /** Whether the first decision may be taken. */
  readonly open: boolean;
  /** Settles when the gate opens (at once when it is open). */
  readonly opened: Promise<void>;
  /**
   * Calls `listener` once when the gate opens (at once, synchronously, when it is open).
   *
   * @returns a function that forgets the listener
   * @throws nothing; a listener that throws is ignored
   */
  whenOpen(listener: () => void): () => void;
  /** Stops the deadline's timer (the gateway closes); the gate stays as it is. */
  dispose(): void;
}

/** The default settle deadline, in milliseconds: as long as an early request waits. */
export const DEFAULT_SETTLE_DEADLINE_MS = 10_000;

class SettleGateState implements SettleGate {
  open = false;
  readonly opened: Promise<void>;
  readonly #listeners = new Set<() => void>();
  #timer: NodeJS.Timeout | undefined;
  #resolve: () => void = () => {};

  constructor(ready: PromiseLike<unknown> | undefined, deadlineMs: number) {
    this.opened = new Promise<void>((resolve) => {
      this.#resolve = resolve;
    });
    if (ready === undefined) {
      this.#openNow();
      return;
    }
    const openNow = () => this.#openNow();
    void Promise.resolve(ready).then(openNow, openNow);
    this.#timer = setTimeout(openNow, deadlineMs);
    // The deadline alone must not keep a process alive.
    this.#timer.unref();
  }

  whenOpen(listener: () => void): () => void {
    if (this.open) {
      callQuietly(listener);
      return () => {};
    }
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  dispose(): void {
    clearTimeout(this.#timer);
  }

  #openNow(): void {
    if (this.open) return;
    this.open = true;
    clearTimeout(this.#timer);
    this.#resolve();
    const listeners = [...this.#listeners];
    this.#listeners.clear();
    for (const listener of listeners) callQuietly(listener);
  }
}

function callQuietly(listener: () => void): void {
  try {
    listener();
  } catch {
    // One session's trouble must not keep the others from their decision.
  }
}

/**
 * Creates the gate of a gateway's first decision.
 *
 * @param ready - settles when the first connect round is over (`pool.start()`); a
 * rejection counts as over; absent: the gate is open at once
 * @param deadlineMs - the longest the gate stays closed, from now
 * @returns the gate
 * @throws nothing
 * @internal
 */
export function createSettleGate(
  ready: PromiseLike<unknown> | undefined,
  deadlineMs: number = DEFAULT_SETTLE_DEADLINE_MS,
): SettleGate {
  return new SettleGateState(ready, deadlineMs);
}
