// The first pass of a search: each planned term's postings scored into the slots.

import type { PostingBuffer } from '../postings/posting-format.js';
import type { PostingWeights } from '../postings/posting-weights.js';
import { type ScoredSlots, scorePostings } from '../postings/score-postings.js';
import { idfOf } from './idf.js';
import type { QueryPlan } from './query-plan.js';
import { MARKED_TERMS, type SearchScratch } from './search-scratch.js';

/**
 * What the term pass reads of an index.
 *
 * @internal
 */
export interface TermPostings extends ScoredSlots {
  readonly n: number;
  readonly termBuffers: readonly (PostingBuffer | undefined)[];
  readonly termLength: Uint32Array;
}

/**
 * What {@link scoreTerms} reads and writes: one per searcher, made with the index.
 *
 * @internal
 */
export interface TermPass {
  readonly index: TermPostings;
  /** A term's document frequency in the index. */
  readonly df: (id: number) => number;
  readonly weights: PostingWeights;
  readonly scratch: SearchScratch;
  /** Whether proximity needs the marks. */
  readonly marking: boolean;
}

/**
 * Adds each planned term's weight to the slots holding it: its idf times its factor,
 * counted once however often the query repeats it (repeats in long queries are not
 * evidence). Terms of proximity pairs mark the slots holding them in their
 * descriptions, for the pairs' intersections.
 *
 * @param pass - what the pass reads and writes, the same for every query of an index
 * @throws nothing
 * @internal
 */
export function scoreTerms(plan: QueryPlan, pass: TermPass): void {
  const { index, df, weights, scratch, marking } = pass;
  const { ids, factors, paired } = plan;
  for (let q = 0; q < ids.length; q++) {
    const id = ids[q]!;
    scorePostings(
      {
        bytes: index.termBuffers[id]!.bytes,
        end: index.termLength[id]!,
        idf: idfOf(df(id), index.n) * factors[q]!,
        bit: q < MARKED_TERMS && marking && paired.includes(id) ? 1 << q : 0,
      },
      index,
      weights,
      scratch,
    );
  }
}
