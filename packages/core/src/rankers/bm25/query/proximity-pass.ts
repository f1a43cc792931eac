// The proximity pass: a bonus for the tools whose description's first sentence holds
// two query terms side by side, in the query's order.

import { adjacentCount } from '../index/sentences.js';
import { PostingCursor } from '../postings/posting-cursor.js';
import type { PostingBuffer } from '../postings/posting-format.js';
import { idfOf } from './idf.js';
import type { QueryPlan } from './query-plan.js';
import { MARKED_TERMS, type SearchScratch } from './search-scratch.js';

/**
 * What the proximity pass reads of an index.
 *
 * @internal
 */
export interface SentenceIndex {
  readonly n: number;
  readonly alive: Uint8Array;
  readonly termBuffers: readonly (PostingBuffer | undefined)[];
  readonly termLength: Uint32Array;
  /** The first sentences (see `FieldIndex.sentences`) and where each slot's starts. */
  readonly sentences: PostingBuffer;
  readonly slotSentence: Uint32Array;
}

/**
 * The proximity pass of one index's searches.
 *
 * @internal
 */
export class ProximityPass {
  private readonly shorter = new PostingCursor();
  private readonly longer = new PostingCursor();

  /**
   * @param df - a term's document frequency in the index
   * @param k1 - the term-frequency saturation, applied to a pair's count too
   * @param weight - the weight of a pair against a term
   * @throws nothing
   */
  constructor(
    private readonly index: SentenceIndex,
    private readonly df: (id: number) => number,
    private readonly k1: number,
    private readonly weight: number,
  ) {}

  /**
   * Adds the bonuses of a query's pairs. Each distinct pair of adjacent query terms
   * (a, b) that is also adjacent, in that order, in the first sentence of a tool's
   * description adds the pair's idf (over the tools that have it) × the weight × its
   * saturated count. The tools of pairs whose terms both marked the slots holding them
   * in the description (the first sentence is the description's) are found in one pass
   * over the touched slots for all such pairs; the tools of other pairs by walking both
   * posting lists side by side. The bonuses are added pair after pair, in query order,
   * as each pair's idf needs its count.
   *
   * @throws the `RangeError` of a typed array beyond the size limit
   */
  add(plan: QueryPlan, scratch: SearchScratch): void {
    const { termIds, ids } = plan;
    const vocabulary = this.index.termLength.length;
    const df = this.df;
    const firsts: number[] = [];
    const seconds: number[] = [];
    // Per pair: the marks of its two terms (0: walked), or -1 when a term is in no tool.
    const marks: number[] = [];
    let anyMarked = false;
    for (let i = 1; i < termIds.length; i++) {
      const a = termIds[i - 1]!;
      const b = termIds[i]!;
      if (a < 0 || b < 0 || a === b || a >= vocabulary || b >= vocabulary) continue;
      let repeated = false;
      for (let d = 0; d < firsts.length && !repeated; d++) {
        repeated = firsts[d] === a && seconds[d] === b;
      }
      if (repeated) continue;
      firsts.push(a);
      seconds.push(b);
      if (df(a) === 0 || df(b) === 0) {
        marks.push(-1);
        continue;
      }
      const qa = ids.indexOf(a);
      const qb = ids.indexOf(b);
      const marked = qa >= 0 && qa < MARKED_TERMS && qb >= 0 && qb < MARKED_TERMS;
      marks.push(marked ? (1 << qa) | (1 << qb) : 0);
      anyMarked ||= marked;
    }
    if (firsts.length === 0) return;
    // The marked pairs' slots, in touched order: a slot needs two marks to be in one.
    let entries = 0;
    if (anyMarked) {
      const { touched, termMask, touchedCount } = scratch;
      for (let t = 0; t < touchedCount; t++) {
        const slot = touched[t]!;
        const held = termMask[slot]!;
        if ((held & (held - 1)) === 0) continue;
        for (let p = 0; p < marks.length; p++) {
          const both = marks[p]!;
          if (both <= 0 || (held & both) !== both) continue;
          const adjacent = adjacentCount(
            this.index.sentences.bytes,
            this.index.slotSentence[slot]!,
            firsts[p]!,
            seconds[p]!,
          );
          if (adjacent === 0) continue;
          if (entries === scratch.pairSlots.length) scratch.growPairs(entries + 1, entries);
          scratch.pairSlots[entries] = slot;
          scratch.pairCounts[entries] = adjacent;
          scratch.pairOf[entries] = p;
          entries++;
        }
      }
    }
    for (let p = 0; p < marks.length; p++) {
      const both = marks[p]!;
      if (both < 0) continue;
      if (both > 0) {
        let found = 0;
        for (let j = 0; j < entries; j++) if (scratch.pairOf[j] === p) found++;
        if (found > 0) this.addPair(scratch, p, 0, entries, found);
        continue;
      }
      const found = this.walkPair(scratch, firsts[p]!, seconds[p]!, entries);
      scratch.pairOf.fill(p, entries, entries + found);
      if (found > 0) this.addPair(scratch, p, entries, entries + found, found);
    }
  }

  /**
   * The slots of an adjacent pair (a, b) found by walking both posting lists (for terms
   * past those that mark slots): the alive slots of the shorter list, then the longer
   * list walked against them. Writes the scratch's pair lists from `from`; returns how
   * many it wrote.
   */
  private walkPair(scratch: SearchScratch, a: number, b: number, from: number): number {
    const { termBuffers, termLength, alive, slotSentence, sentences } = this.index;
    const aShorter = termLength[a]! <= termLength[b]!;
    const shortId = aShorter ? a : b;
    const longId = aShorter ? b : a;
    const candidates = scratch.candidates(this.df(shortId));
    let count = 0;
    const shorter = this.shorter.open(termBuffers[shortId]!.bytes, termLength[shortId]!);
    while (shorter.next()) if (alive[shorter.slot] !== 0) candidates[count++] = shorter.slot;
    let found = from;
    const longer = this.longer.open(termBuffers[longId]!.bytes, termLength[longId]!);
    for (let next = 0; next < count && longer.next(); ) {
      const slot = longer.slot;
      while (next < count && candidates[next]! < slot) next++;
      if (next === count || candidates[next] !== slot) continue;
      next++;
      const adjacent = adjacentCount(sentences.bytes, slotSentence[slot]!, a, b);
      if (adjacent > 0) {
        if (found === scratch.pairSlots.length) scratch.growPairs(found + 1, found);
        scratch.pairSlots[found] = slot;
        scratch.pairCounts[found] = adjacent;
        found++;
      }
    }
    return found - from;
  }

  /** Adds a pair's bonus to each of its slots (the scratch's pair entries `from` to `to` of pair `pair`). */
  private addPair(
    scratch: SearchScratch,
    pair: number,
    from: number,
    to: number,
    found: number,
  ): void {
    const { pairSlots, pairCounts, pairOf, scores } = scratch;
    const k1 = this.k1;
    const idf = idfOf(found, this.index.n) * this.weight;
    for (let j = from; j < to; j++) {
      if (pairOf[j] !== pair) continue;
      const count = pairCounts[j]!;
      scores[pairSlots[j]!]! += (idf * (count * (k1 + 1))) / (k1 + count);
    }
  }
}
