// The searcher of a field index: plans a query, then runs its passes over the slots'
// scores: the terms, proximity, learned terms, deprecated tools demoted, the relevance floor's coverage, the group lift (settled
// from the leaders where it can be), the partial top-k; then ranks exact names first
// and falls back to a substring match of names. Scores are per slot; results are named
// by their tools' catalog positions.

import type { Analyzer } from '../../../analyzer.js';
import type { RankedTool, RankerIndex } from '../../ranker.js';
import { documentFrequency, type FieldIndex } from '../index/field-index.js';
import { PostingWeights } from '../postings/posting-weights.js';
import type { Bm25Tuning } from '../tuning.js';
import { DeprecationPass } from './deprecation-pass.js';
import { FloorPass } from './floor-pass.js';
import { type GroupBoostWay, GroupPass } from './group-pass.js';
import { addLearnedScores, type LearnedPass } from './learned-pass.js';
import { exactNamesFirst, namesContaining } from './name-matches.js';
import { ProximityPass } from './proximity-pass.js';
import { expansionsFor } from './query-expansion.js';
import { type PlanContext, planQuery } from './query-plan.js';
import type { SearchScratch } from './search-scratch.js';
import { scoreTerms, type TermPass } from './term-pass.js';
import { topK } from './top-k.js';

/** How many of the best slots before the group lift settle it (see `GroupPass.fromLeaders`). */
const LEADERS = 32;

/**
 * Options of {@link createSearcher}.
 *
 * @internal
 */
export interface SearcherOptions {
  readonly analyzer: Analyzer;
  readonly tuning: Bm25Tuning;
  /** The part-of-speech weights per query text, shared by the indexes of a ranker. */
  readonly posCache: Map<string, Map<string, number>>;
  /** The per-slot arrays of searches, shared by the indexes of a ranker. */
  readonly scratch: SearchScratch;
  /**
   * For tests: the leaders that settle the group boost; 0 for the full passes.
   * @defaultValue 32
   */
  leaders?: number;
  /** For tests: told which way each search with a group boost went. */
  onGroupBoost?: (way: GroupBoostWay) => void;
}

/**
 * The searcher of an index: a {@link RankerIndex} whose searches (synchronous) use the
 * ranker's scratch arrays, grown to the index.
 *
 * @param options - what the searches share across a ranker's indexes (see {@link SearcherOptions})
 * @internal
 */
export function createSearcher(index: FieldIndex, options: SearcherOptions): RankerIndex {
  const { analyzer, tuning, posCache, scratch } = options;
  const { n, capacity, position } = index;
  const vocabulary = index.termLength.length;
  // Document frequencies, counted from the postings where a patch left them unknown.
  const df = (id: number): number => documentFrequency(index, id);
  const floor = tuning.relevanceFloor === false ? undefined : tuning.relevanceFloor;
  const planContext: PlanContext = {
    analyzer,
    tuning,
    terms: index.terms,
    isEmpty: (id) => id >= vocabulary || df(id) === 0,
    expansions: expansionsFor(analyzer, tuning),
    posCache,
    withWords: floor !== undefined,
  };
  const weights = new PostingWeights(index.fieldWeights, index.fieldBs, index.averages, tuning.k1);
  const proximity =
    tuning.proximityWeight > 0
      ? new ProximityPass(index, df, tuning.k1, tuning.proximityWeight)
      : undefined;
  const floorPass = floor === undefined ? undefined : new FloorPass(index, floor, index.terms, df);
  const groups =
    tuning.groupBoost > 0 && index.groupMembers.length > 0
      ? new GroupPass(
          index,
          tuning.groupBoost,
          tuning.groupTop,
          options.leaders ?? LEADERS,
          options.onGroupBoost,
        )
      : undefined;
  const termPass: TermPass = { index, df, weights, scratch, marking: proximity !== undefined };
  const learnedPass: LearnedPass = {
    index,
    scratch,
    weight: tuning.learnedWeight,
    saturation: tuning.learnedSaturation,
    textFrequency: df,
  };
  // The tools whose description says they are deprecated (usually none): planned on the
  // first search, so that building or patching an index reads no more tools.
  let deprecation: DeprecationPass | undefined | null =
    tuning.deprecatedWeight === 1 ? null : undefined;
  let lowerNames: string[] | undefined;
  const lowerNamesOf = (): readonly string[] => {
    lowerNames ??= index.tools.map((tool) => tool.name.toLowerCase());
    return lowerNames;
  };

  /** The best `k` slots of a query. */
  const bestSlots = (query: string, k: number): number[] => {
    const plan = planQuery(query, planContext);
    scoreTerms(plan, termPass);
    proximity?.add(plan, scratch);
    addLearnedScores(plan, learnedPass);
    if (deprecation === undefined) {
      deprecation = DeprecationPass.plan(index, tuning.deprecatedWeight) ?? null;
    }
    deprecation?.apply(scratch.scores);
    floorPass?.credit(plan);
    // Without a relevance floor (which reads every touched slot), the leaders settle
    // the group lift and the results in most searches.
    const settled =
      groups !== undefined && floorPass === undefined ? groups.fromLeaders(scratch, k) : undefined;
    if (settled !== undefined) return settled;
    groups?.boostAll(scratch, k);
    floorPass?.apply(scratch);
    return topK(scratch.scores, position, scratch.touched, scratch.touchedCount, k);
  };

  return {
    search(query: string, limit: number): RankedTool[] {
      if (n === 0 || typeof query !== 'string' || !(limit >= 1)) return [];
      const k = Math.min(Math.floor(limit), n);
      scratch.ensure(capacity);
      let results: RankedTool[];
      try {
        results = bestSlots(query, k).map((slot) => ({
          name: index.tools[position[slot]!]!.name,
          score: scratch.scores[slot]!,
        }));
      } finally {
        floorPass?.reset(scratch);
        scratch.clear(capacity);
      }
      if (tuning.exactNameFirst) results = exactNamesFirst(index, query, results, k);
      return results.length > 0 ? results : namesContaining(index.tools, lowerNamesOf, query, k);
    },
  };
}
