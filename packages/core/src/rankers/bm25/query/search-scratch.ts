// Scratch space of searches, shared by every index of a ranker: searches are
// synchronous, so one set of per-slot arrays serves them all (grown to the largest
// index), and an index patched for a small change allocates none of its own.

import type { SlotScores } from '../postings/score-postings.js';

/** How many query terms mark the slots they hold (see `termMask`). */
export const MARKED_TERMS = 16;

/**
 * Per-slot arrays of one search at a time: scores, which slots a query touched, which
 * query terms hold them; and lists of proximity pairs, grown as needed. Every search
 * leaves `scores`, `seen` and `termMask` zeroed where it wrote them.
 *
 * @internal
 */
export class SearchScratch implements SlotScores {
  scores = new Float64Array(0);
  seen = new Uint8Array(0);
  touched = new Uint32Array(0);
  /** Per slot: bit q set when query term q (below {@link MARKED_TERMS}) holds it. */
  termMask = new Uint16Array(0);
  /** How many entries of `touched` the current search wrote. */
  touchedCount = 0;
  pairSlots = new Uint32Array(0);
  pairCounts = new Uint8Array(0);
  /** Per pair entry: which of the query's pairs it is of. */
  pairOf = new Uint16Array(0);
  pairCandidates = new Uint32Array(0);

  /**
   * Makes the per-slot arrays at least `capacity` long (kept zeroed: grown arrays are new).
   *
   * @throws the `RangeError` of a typed array beyond the size limit
   */
  ensure(capacity: number): void {
    if (this.scores.length >= capacity) return;
    const size = Math.max(capacity, Math.ceil(this.scores.length * 1.25));
    this.scores = new Float64Array(size);
    this.seen = new Uint8Array(size);
    this.touched = new Uint32Array(size);
    this.termMask = new Uint16Array(size);
  }

  /**
   * Marks a slot touched by the current search (listed once, in touch order).
   *
   * @throws nothing
   */
  touch(slot: number): void {
    if (this.seen[slot] === 0) {
      this.seen[slot] = 1;
      this.touched[this.touchedCount++] = slot;
    }
  }

  /**
   * Zeroes what the current search wrote to `scores`, `seen` and `termMask`, and
   * empties `touched`.
   *
   * @param capacity - the slots of the index searched
   * @throws nothing
   */
  clear(capacity: number): void {
    const { touched, scores, seen, termMask } = this;
    const count = this.touchedCount;
    if (count * 4 > capacity) {
      // A search that touched much of the catalog: clearing whole arrays costs less
      // than writes scattered over them.
      scores.fill(0, 0, capacity);
      seen.fill(0, 0, capacity);
      termMask.fill(0, 0, capacity);
    } else {
      for (let i = 0; i < count; i++) {
        const slot = touched[i]!;
        scores[slot] = 0;
        seen[slot] = 0;
        termMask[slot] = 0;
      }
    }
    this.touchedCount = 0;
  }

  /**
   * Makes the pair lists at least `size` long, keeping their first `kept` entries.
   *
   * @throws the `RangeError` of a typed array beyond the size limit
   */
  growPairs(size: number, kept: number): void {
    if (this.pairSlots.length >= size) return;
    const length = Math.max(size, this.pairSlots.length * 2, 256);
    const slots = new Uint32Array(length);
    slots.set(this.pairSlots.subarray(0, kept));
    const counts = new Uint8Array(length);
    counts.set(this.pairCounts.subarray(0, kept));
    const pairs = new Uint16Array(length);
    pairs.set(this.pairOf.subarray(0, kept));
    this.pairSlots = slots;
    this.pairCounts = counts;
    this.pairOf = pairs;
  }

  /**
   * Makes the candidate list at least `size` long (its content is not kept).
   *
   * @throws the `RangeError` of a typed array beyond the size limit
   */
  candidates(size: number): Uint32Array {
    if (this.pairCandidates.length < size) {
      this.pairCandidates = new Uint32Array(Math.max(size, this.pairCandidates.length * 2));
    }
    return this.pairCandidates;
  }
}
