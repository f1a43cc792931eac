import { createBm25Ranker, type Ranker } from '@tool-search/core';
import { createMiniSearchRanker, createOramaRanker } from './peers.js';

/** A ranker the CLI can run, created on demand (some load large data). */
export interface RankerEntry {
  name: string;
  description: string;
  create(): Ranker | Promise<Ranker>;
}

/** Every ranker `tools/eval` knows, in table order. `spec` is the baseline of the ratios. */
export const RANKERS: readonly RankerEntry[] = [
  {
    name: 'spec',
    description: "createBm25Ranker({ preset: 'spec' }): the reference BM25, the baseline",
    create: () => createBm25Ranker({ preset: 'spec' }),
  },
  {
    name: 'default',
    description: 'createBm25Ranker(): the default preset',
    create: () => createBm25Ranker(),
  },
  {
    name: 'minisearch',
    description: 'minisearch 7, fields name / description / parameters boosted 3 / 1 / 0.5',
    create: createMiniSearchRanker,
  },
  {
    name: 'orama',
    description: '@orama/orama 3, the same fields and boosts',
    create: createOramaRanker,
  },
];

/** The rankers run when `--rankers` is not given. */
export const DEFAULT_RANKERS = RANKERS.map((entry) => entry.name);
