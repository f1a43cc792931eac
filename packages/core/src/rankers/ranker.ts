// The ranker contract (`Ranker`, version v1) that every ranker implements, the
// built-in ones beside it and yours. To write one, read this file, then a built-in:
// embedding-ranker.ts is the smallest, bm25/ the default (start at bm25/index.ts and
// bm25/tuning.ts); check yours with `testRanker` from `@tool-search/core/testing`.

import type { Promisable, ToolDefinition } from '../types.js';

/** One ranked tool: its name and a score greater than 0. */
export interface RankedTool {
  /** The tool's name, from the indexed list. */
  name: string;
  /** The relevance score, greater than 0; higher is better. */
  score: number;
}

/**
 * A searchable index built by a {@link Ranker} over one list of tools.
 */
export interface RankerIndex {
  /**
   * Ranks the indexed tools for a query.
   *
   * @param query - the user's or model's query, any string
   * @param limit - the most results to return, a positive integer
   * @returns at most `limit` tools, best first, every score greater than 0
   */
  search(query: string, limit: number): Promisable<readonly RankedTool[]>;
}

/**
 * The ranker contract, version 1. A ranker indexes a list of tools and answers
 * ranked searches over it. Implement it to plug in your own retrieval, and check
 * it with `testRanker` from `@tool-search/core/testing`.
 *
 * @example
 * ```ts
 * const ranker: Ranker = {
 *   specificationVersion: 'v1',
 *   id: 'by-name-length',
 *   index(tools) {
 *     return {
 *       search(query, limit) {
 *         return tools
 *           .filter((tool) => tool.name.includes(query))
 *           .slice(0, limit)
 *           .map((tool) => ({ name: tool.name, score: 1 / tool.name.length }));
 *       },
 *     };
 *   },
 * };
 * ```
 */
export interface Ranker {
  /** The contract version this ranker implements. */
  readonly specificationVersion: 'v1';
  /** A stable id, e.g. `bm25:default`, shown in logs and benchmarks. */
  readonly id: string;
  /**
   * Builds an index over the tools. Called for every catalog: memoize per tool
   * object if building is costly.
   *
   * @param tools - the tools to index, names unique
   */
  index(tools: readonly ToolDefinition[]): Promisable<RankerIndex>;
}

/**
 * A typed identity helper for writing a {@link Ranker} object literal.
 *
 * @param ranker - the ranker
 * @returns the same ranker
 * @throws nothing
 */
export function defineRanker(ranker: Ranker): Ranker {
  return ranker;
}
