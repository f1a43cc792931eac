/** A fixed number of slots: who takes one past the limit waits for a free one, in order. */
export interface Slots {
  /** Waits for a free slot; call the answer (once) to free it. */
  take(): Promise<() => void>;
}

/**
 * Creates `limit` slots. A freed slot passes straight to the longest waiter, so none is
 * ever taken twice.
 *
 * @param limit - how many may be taken at once
 * @returns the slots
 * @throws nothing
 */
export function createSlots(limit: number): Slots {
  let taken = 0;
  const waiting: (() => void)[] = [];
  const free = () => {
    const next = waiting.shift();
    if (next === undefined) taken -= 1;
    else next();
  };
  return {
    async take() {
      if (taken >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
      else taken += 1;
      let freed = false;
      return () => {
        if (freed) return;
        freed = true;
        free();
      };
    },
  };
}
