import { createHash } from 'node:crypto';
import type { Ranker } from '@tool-search/core';
import type { DataSetName, EvalSet } from './data.js';
import { meanScores, type QueryScores, scoreQuery } from './metrics.js';

/** One ranker's scores on one set. */
export interface SetResult {
  ranker: string;
  set: DataSetName;
  queries: number;
  scores: QueryScores;
  /** Per query, in the set's order (for paired comparisons). */
  perQuery: QueryScores[];
  /** Index build time, ms. */
  buildMs: number;
  /** Mean search time per query, ms. */
  queryMs: number;
  /**
   * SHA-256 (hex) over every ranked list, in query order: each query's id and its hits'
   * names and scores (scores as JSON numbers, i.e. to full precision). Equal hashes mean
   * byte-identical rankings, which is how a refactor shows it changed nothing.
   */
  rankingHash: string;
}

/** How many results are scored: the metrics look at the top 10. */
export const EVAL_DEPTH = 10;

/** Indexes the set's tools with the ranker and scores every query. */
export async function evaluateRanker(
  ranker: Ranker,
  label: string,
  set: EvalSet,
): Promise<SetResult> {
  const startBuild = performance.now();
  const index = await ranker.index(set.tools);
  const buildMs = performance.now() - startBuild;
  const perQuery: QueryScores[] = [];
  const hash = createHash('sha256');
  const startQueries = performance.now();
  for (const query of set.queries) {
    const ranked = await index.search(query.query, EVAL_DEPTH);
    hash.update(`${JSON.stringify([query.id, ranked.map((hit) => [hit.name, hit.score])])}\n`);
    perQuery.push(
      scoreQuery(
        ranked.map((hit) => hit.name),
        query.relevant,
      ),
    );
  }
  const queryMs = (performance.now() - startQueries) / Math.max(1, set.queries.length);
  return {
    ranker: label,
    set: set.name,
    queries: set.queries.length,
    scores: meanScores(perQuery),
    perQuery,
    buildMs,
    queryMs,
    rankingHash: hash.digest('hex'),
  };
}
