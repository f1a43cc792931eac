// What the worker's measurements share: the limits, the query order and our systems.
import type { Ranker } from '@tool-search/core';
import type { OurRankerName } from './options.js';
import { BENCH_QUERIES } from './queries.js';

export const LIMIT = 5;
export const CHANGED_FRACTION = 0.01;
export const SMALL_CHANGED_FRACTION = 0.001;

/** Writes a progress line on stderr. */
export function log(message: string): void {
  process.stderr.write(`${message}\n`);
}

/** The query of an iteration, round the query set. */
export function queryAt(iteration: number): string {
  const count = BENCH_QUERIES.length;
  return BENCH_QUERIES[((iteration % count) + count) % count]!;
}

/** Awaits only what is a promise, so that synchronous peers are timed synchronously. */
export async function settle(value: unknown): Promise<void> {
  if (value !== null && typeof value === 'object' && 'then' in value) await value;
}

/** One of our presets, as the worker measures it. */
export interface OurSystem {
  id: string;
  name: OurRankerName;
  setup: string;
  /** A new ranker of the preset: no per-instance cache of another measurement helps it. */
  freshRanker(): Ranker;
}
