// The relevance floor's pass: the coverage of the query's content words per slot,
// credited from the postings of the planned terms, then the cut of the hits that hold
// too little of the query (or of every hit, when no tool fits the query).

import { PostingCursor } from '../postings/posting-cursor.js';
import type { PostingBuffer } from '../postings/posting-format.js';
import type { RelevanceFloor } from '../relevance-floor.js';
import { type CoverageTracker, createCoverageTracker } from './coverage-tracker.js';
import { idfOf } from './idf.js';
import type { QueryPlan } from './query-plan.js';
import type { SearchScratch } from './search-scratch.js';

/**
 * What the floor pass reads of an index.
 *
 * @internal
 */
export interface CoveredIndex {
  readonly n: number;
  readonly capacity: number;
  readonly alive: Uint8Array;
  readonly termBuffers: readonly (PostingBuffer | undefined)[];
  readonly termLength: Uint32Array;
}

/**
 * The relevance floor of one index's searches.
 *
 * @internal
 */
export class FloorPass {
  private readonly coverage: CoverageTracker;
  private readonly cursor = new PostingCursor();
  /** How many of the last query's content words the catalog uses. */
  private usedWords = 0;

  /**
   * @param terms - the term ids of the index's dictionary
   * @param df - a term's document frequency in the index (0 for an unknown id)
   * @throws the `RangeError` of a typed array beyond the size limit
   */
  constructor(
    private readonly index: CoveredIndex,
    private readonly floor: RelevanceFloor,
    private readonly terms: ReadonlyMap<string, number>,
    private readonly df: (id: number) => number,
  ) {
    this.coverage = createCoverageTracker(index.capacity, floor);
  }

  /**
   * Credits the query's content words to the slots holding them. A word's weight is
   * its rarity here (a word no tool uses is as rare as can be) and its part of speech,
   * as in the score.
   *
   * @throws nothing
   */
  credit(plan: QueryPlan): void {
    const { n, alive, termBuffers, termLength } = this.index;
    const floor = this.floor;
    this.usedWords = 0;
    const weights = plan.words.map((word) => {
      const id = this.terms.get(word);
      const frequency = id === undefined ? 0 : this.df(id);
      if (frequency > 0) this.usedWords++;
      const known = frequency > 0 ? 1 : floor.unknownWordWeight;
      return idfOf(frequency, n) * known * (plan.partOfSpeech?.get(word) ?? 1);
    });
    this.coverage.start(weights);
    // Each word's own term first: a tool is credited once per word, with its first credit.
    for (let word = 0; word < plan.words.length; word++) {
      for (let q = 0; q < plan.ids.length; q++) {
        if (plan.origins[q] !== word) continue;
        const id = plan.ids[q]!;
        this.cursor.open(termBuffers[id]!.bytes, termLength[id]!);
        this.coverage.credit(word, this.cursor, alive, plan.credits[q]!);
      }
    }
  }

  /**
   * Zeroes the score of every touched slot that holds too little of the query, or of
   * every touched slot when none fits the query.
   *
   * @throws nothing
   */
  apply(scratch: SearchScratch): void {
    const { touched, touchedCount, scores } = scratch;
    const floor = this.floor;
    const coverage = this.coverage;
    // The word count is evidence about the query (does any tool hold enough of it?),
    // not about each hit: a tail hit with one word still serves a query that fits.
    const minWords = Math.min(floor.minWords, this.usedWords);
    let fits = false;
    for (let i = 0; i < touchedCount && !fits; i++) {
      const slot = touched[i]!;
      fits = coverage.words(slot) >= minWords || coverage.share(slot) >= floor.fitCoverage;
    }
    for (let i = 0; i < touchedCount; i++) {
      const slot = touched[i]!;
      if (!fits || coverage.share(slot) < floor.minCoverage) scores[slot] = 0;
    }
  }

  /**
   * Clears what the last search credited.
   *
   * @throws nothing
   */
  reset(scratch: SearchScratch): void {
    this.coverage.reset(scratch.touched, scratch.touchedCount);
  }
}
