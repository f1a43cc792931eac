// The coverage behind the relevance floor: per tool, how much of a query's weighted
// content words it holds, tracked while the searcher walks the postings.

import type { PostingCursor } from '../postings/posting-cursor.js';
import { FREQUENCY_BITS, MAX_FREQUENCY } from '../postings/posting-format.js';
import type { RelevanceFloor } from '../relevance-floor.js';

// The frequency bits of the name and the description in a posting's code (fields 0 and 1).
const STRONG_FIELDS = MAX_FREQUENCY | (MAX_FREQUENCY << FREQUENCY_BITS);

/**
 * Per-tool coverage of one query at a time, over scratch arrays sized by the index.
 *
 * @internal
 */
export interface CoverageTracker {
  /** Starts a query whose content words weigh `weights` (any non-negative numbers). */
  start(weights: readonly number[]): void;
  /**
   * Credits content word `word` to the tools of a posting list (read to its end). A tool is credited once
   * per word, with the first credit it gets: credit a word's own term before its
   * expansions.
   */
  credit(word: number, postings: PostingCursor, alive: Uint8Array, credit: number): void;
  /** The share of the query's weight a tool covers, in [0, 1]. */
  share(slot: number): number;
  /** How many of the query's content words a tool holds as they are (up to 255). */
  words(slot: number): number;
  /** Clears the tools a query touched. */
  reset(slots: Uint32Array, count: number): void;
}

/**
 * Creates a coverage tracker for an index of `capacity` slots.
 *
 * @internal
 */
export function createCoverageTracker(capacity: number, floor: RelevanceFloor): CoverageTracker {
  const covered = new Float64Array(capacity);
  const counts = new Uint8Array(capacity);
  // The mark of the last (query, word) that credited each tool: one credit per word.
  const stamp = new Uint32Array(capacity);
  let mark = 0;
  let markOfWord = 0;
  let weightsOfWords: readonly number[] = [];
  let total = 0;
  return {
    start(weights) {
      weightsOfWords = weights;
      total = 0;
      for (const weight of weights) total += weight;
      // Marks only grow; wrap by clearing, long before 2^32.
      if (mark > 0xfff00000 - weights.length) {
        stamp.fill(0);
        mark = 0;
      }
      markOfWord = mark + 1;
      mark += weights.length + 1;
    },
    credit(word, postings, alive, credit) {
      const weight = weightsOfWords[word]! * credit;
      if (!(weight > 0)) return;
      const wordMark = markOfWord + word;
      const weak = weight * floor.weakFieldCredit;
      while (postings.next()) {
        const slot = postings.slot;
        if (alive[slot] === 0 || stamp[slot] === wordMark) continue;
        stamp[slot] = wordMark;
        covered[slot]! += (postings.frequencies & STRONG_FIELDS) !== 0 ? weight : weak;
        // A word counts as held only through its own term: a synonym pair (`run`,
        // `execute`) in the query is one word's worth of evidence, not two.
        if (credit === 1 && counts[slot]! < 255) counts[slot]!++;
      }
    },
    share(slot) {
      return total > 0 ? covered[slot]! / total : 0;
    },
    words(slot) {
      return counts[slot]!;
    },
    reset(slots, count) {
      for (let i = 0; i < count; i++) {
        covered[slots[i]!] = 0;
        counts[slots[i]!] = 0;
      }
    },
  };
}
