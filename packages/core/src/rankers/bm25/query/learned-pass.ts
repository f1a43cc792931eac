// The learned pass of a search: each distinct query term that tools learned (see
// index/learned-field.ts) adds to those tools' scores, with a bounded weight. Only adds:
// a tool's own match is never lowered, and a tool that matches nothing gains at most
// `learnedWeight` times the query's idf (a term's idf counts the tools holding it in
// their text or their learned terms).

import type { LearnedField } from '../index/learned-field.js';
import type { QueryPlan } from './query-plan.js';
import type { SearchScratch } from './search-scratch.js';

/**
 * What the learned pass reads of an index.
 *
 * @internal
 */
export interface LearnedSlots {
  readonly n: number;
  /** The term ids of the index's text. */
  readonly terms: ReadonlyMap<string, number>;
  readonly alive: Uint8Array;
  readonly learned: LearnedField;
  readonly learnedCount: Map<string, number>;
}

/**
 * What {@link addLearnedScores} reads and writes: one per searcher, made with the index.
 *
 * @internal
 */
export interface LearnedPass {
  readonly index: LearnedSlots;
  readonly scratch: SearchScratch;
  /** The field's weight (`learnedWeight`). */
  readonly weight: number;
  /** The count at which a term gives half its weight. */
  readonly saturation: number;
  /** A term's document frequency in the index's text. */
  readonly textFrequency: (id: number) => number;
}

/**
 * Adds the learned field's scores of a query to the slots.
 *
 * @param pass - what the pass reads and writes, the same for every query of an index
 * @throws nothing
 * @internal
 */
export function addLearnedScores(plan: QueryPlan, pass: LearnedPass): void {
  const { index, scratch, weight, saturation, textFrequency } = pass;
  const { learned, alive, n } = index;
  if (learned.size === 0 || !(weight > 0)) return;
  const seen: string[] = [];
  for (const term of plan.analysed) {
    if (seen.includes(term)) continue;
    seen.push(term);
    const postings = learned.get(term);
    if (postings === undefined) continue;
    const { slots, counts } = postings;
    let df = index.learnedCount.get(term);
    if (df === undefined) {
      df = 0;
      for (let i = 0; i < slots.length; i++) df += alive[slots[i]!]!;
      index.learnedCount.set(term, df);
    }
    if (df === 0) continue;
    // A word many tools' texts hold is common whoever learned it: the idf counts the
    // tools holding it in either field (at least), so `get` never weighs like a rare word.
    const id = index.terms.get(term);
    if (id !== undefined) df = Math.max(df, textFrequency(id));
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    const factor = weight * idf * (plan.partOfSpeech?.get(term) ?? 1);
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i]!;
      if (alive[slot] === 0) continue;
      const count = counts[i]!;
      scratch.touch(slot);
      scratch.scores[slot]! += factor * (count / (count + saturation));
    }
  }
}
