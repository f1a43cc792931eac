/**
 * A percentile by nearest rank.
 *
 * @param sorted - samples in ascending order
 * @param p - the percentile, 0 to 100
 * @returns the sample at that rank, or NaN for no samples
 * @throws nothing
 */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

/**
 * A small seeded generator (mulberry32), so that a run's sequence of operations repeats.
 *
 * @param seed - any integer
 * @returns a function giving numbers in [0, 1)
 * @throws nothing
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Picks one item.
 *
 * @param random - a generator from {@link seededRandom}
 * @param items - a non-empty list
 * @returns one of them
 * @throws nothing
 */
export function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}
