// The ranker contract (`Ranker`: version v2, which patches its previous index, and v1,
// still accepted everywhere) that every ranker implements, the built-in ones beside it
// and yours. To write one, read this file, then a built-in:
// embedding-ranker.ts is the smallest, bm25/ the default (start at bm25/index.ts and
// bm25/tuning.ts); check yours with `testRanker` from `@tool-search/core/testing`.

import type { ToolListChange } from '../tool-list.js';
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
export interface RankerV1 {
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

/** What a {@link RankerV2} gets besides the tools: what it may patch. */
export interface RankerIndexOptions {
  /**
   * An index this ranker built before, for the caller's previous list of the same
   * session: patch it rather than build anew, when that is cheaper. The index stays
   * usable (a patched index must not change how `previous` answers).
   */
  readonly previous?: RankerIndex;
  /**
   * Given only with `previous`: the tools are the list `previous` indexed with the tools
   * at `change.changed` replaced in place (the same length), so only those positions need
   * a look. Without it, compare the lists yourself (or build anew).
   */
  readonly change?: ToolListChange;
}

/**
 * The ranker contract, version 2: a v1 ranker whose `index` also gets the previous index
 * and the list's change, so that it can patch instead of rebuilding (an index must answer
 * exactly as a fresh one over the same tools: `testRanker` checks it). Every place that
 * takes a ranker takes either version.
 *
 * @example
 * ```ts
 * const ranker = defineRanker({
 *   specificationVersion: 'v2',
 *   id: 'by-name',
 *   index(tools, { previous, change } = {}) {
 *     // ... reuse what `previous` holds for the tools outside `change.changed`
 *     return { search: (query, limit) => [] };
 *   },
 * });
 * ```
 */
export interface RankerV2 {
  /** The contract version this ranker implements. */
  readonly specificationVersion: 'v2';
  /** A stable id, e.g. `bm25:default`, shown in logs and benchmarks. */
  readonly id: string;
  /**
   * Builds an index over the tools, or patches `options.previous` into one.
   *
   * @param tools - the tools to index, names unique; a frozen array (do not change it)
   * @param options.previous - an index this ranker built before, to patch
   * @param options.change - how `tools` differs from the list `previous` indexed
   */
  index(tools: readonly ToolDefinition[], options?: RankerIndexOptions): Promisable<RankerIndex>;
}

/** A ranker of either contract version, {@link RankerV2} or {@link RankerV1}. */
export type Ranker = RankerV1 | RankerV2;

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
