/** Summary statistics of timed samples, in milliseconds. */
export interface Stats {
  /** Number of timed samples. */
  samples: number;
  /** The median (p50). */
  p50: number;
  /** The 99th percentile (nearest rank; with fewer than 100 samples, the maximum). */
  p99: number;
  min: number;
  max: number;
  mean: number;
}

/** How many samples a measurement takes. */
export interface SampleOptions {
  /** Untimed runs first (stopped early when they use half the budget; at least one). */
  warmup: number;
  /** The most timed samples. */
  iterations: number;
  /** The fewest timed samples, whatever the budget. */
  minSamples: number;
  /** Stop taking samples after this much wall time (once `minSamples` are taken). */
  budgetMs: number;
}

/** The nearest-rank percentile of sorted values. */
export function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil(fraction * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export function summarize(samples: readonly number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const n = sorted.length;
  const middle = Math.floor(n / 2);
  const p50 =
    n === 0 ? Number.NaN : n % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return {
    samples: n,
    p50,
    p99: percentile(sorted, 0.99),
    min: sorted[0] ?? Number.NaN,
    max: sorted[n - 1] ?? Number.NaN,
    mean: n === 0 ? Number.NaN : sorted.reduce((sum, value) => sum + value, 0) / n,
  };
}

/** Milliseconds since `start` (from {@link now}). */
export function since(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export const now = (): bigint => process.hrtime.bigint();

/** Runs a full garbage collection when the process has `--expose-gc`. */
export function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc !== undefined) {
    gc();
    gc();
  }
}

export const hasGc = (): boolean => typeof (globalThis as { gc?: unknown }).gc === 'function';

/**
 * Idle time `--settle-ms auto` gives per MiB of V8 heap after the collection: a full
 * collection leaves the heap to be swept by other threads, and on a two-core machine a
 * timed operation started during that runs slower (the benchmarks guide, "Why the bench
 * waits after its collection", has the measurements).
 */
export const AUTO_SETTLE_MS_PER_MIB = 0.25;

/**
 * The idle time `--settle-ms auto` gives after collecting a heap of `heapBytes`.
 *
 * @returns milliseconds, 10 to 500
 */
export function autoSettleMs(heapBytes: number): number {
  const ms = Math.ceil((heapBytes / 1_048_576) * AUTO_SETTLE_MS_PER_MIB);
  return Math.min(500, Math.max(10, ms));
}

/**
 * What every timed build and assembly starts from: a full collection (twice, so that the
 * garbage of the sample before is not collected inside this one), then idle time for the
 * collector's concurrent work on the heap it collected (see {@link AUTO_SETTLE_MS_PER_MIB}).
 *
 * @param settleMs - the idle time, or `auto` to scale it with the heap
 * @returns the idle time given (0 without `--expose-gc`)
 */
export async function collectBeforeSample(settleMs: number | 'auto'): Promise<number> {
  collectGarbage();
  if (!hasGc()) return 0;
  const ms = settleMs === 'auto' ? autoSettleMs(process.memoryUsage().heapTotal) : settleMs;
  if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
  return ms;
}

/** One timed operation: prepares its inputs, times only what counts, returns ms (or several). */
export type TimedRun = (iteration: number) => Promise<number | number[]>;

/**
 * Takes timed samples of several operations, round-robin: one sample of each in turn,
 * so that every operation sees the same machine (on a busy machine, load drifts over
 * minutes; measured one after the other, the first systems and the last would not be
 * comparable). Each operation stops at `iterations` samples, or once its own wall time
 * passes the budget and it has `minSamples`.
 *
 * @returns the timed samples of each operation, in the order of `runs`
 */
export async function collectInterleaved(
  runs: readonly TimedRun[],
  options: SampleOptions,
): Promise<number[][]> {
  const flat = (value: number | number[]) => (Array.isArray(value) ? value : [value]);
  const warmupTime = runs.map(() => 0);
  for (let w = 0; w < Math.max(1, options.warmup); w++) {
    for (const [k, run] of runs.entries()) {
      if (w > 0 && warmupTime[k]! > options.budgetMs / 2) continue;
      const start = now();
      await run(-1 - w);
      warmupTime[k]! += since(start);
    }
  }
  const samples = runs.map((): number[] => []);
  const counts = runs.map(() => 0);
  const elapsed = runs.map(() => 0);
  const active = (k: number) =>
    counts[k]! < options.iterations &&
    (counts[k]! < options.minSamples || elapsed[k]! <= options.budgetMs);
  for (let i = 0; runs.some((_, k) => active(k)); i++) {
    for (const [k, run] of runs.entries()) {
      if (!active(k)) continue;
      const start = now();
      samples[k]!.push(...flat(await run(i)));
      elapsed[k]! += since(start);
      counts[k]!++;
    }
  }
  return samples;
}

/** {@link collectInterleaved} for one operation. */
export async function collect(run: TimedRun, options: SampleOptions): Promise<number[]> {
  return (await collectInterleaved([run], options))[0]!;
}

/** Bytes in use: the V8 heap plus array buffers (large typed arrays live outside the heap). */
export function usedBytes(): number {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

/**
 * The bytes that building something retains: garbage-collected use before and after,
 * holding the built value across the second measurement.
 */
export async function retainedBytes<T>(
  build: () => Promise<T>,
): Promise<{ bytes: number; value: T }> {
  collectGarbage();
  const before = usedBytes();
  const value = await build();
  collectGarbage();
  const after = usedBytes();
  return { bytes: after - before, value };
}
