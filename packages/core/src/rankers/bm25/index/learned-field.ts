// The learned field of an index: per learned term, the slots whose tools learned it and
// their counts (see `ToolDefinition.learnedTerms`). Kept apart from the text postings:
// its terms are the queries' (a word no tool's text holds is the most useful kind), and
// its counts are decayed floats. Persistent like the rest of an index: a patch copies the
// term map and the lists of the terms its arrivals learned, and shares the others; slots
// of tools that left stay in the lists until a compaction (searches skip dead slots).

import { isRecord } from '../../../is-record.js';
import type { ToolDefinition } from '../../../types.js';

/** The most learned terms an index reads of one tool. */
const MAX_TERMS_PER_TOOL = 64;
/** The longest learned term an index reads. */
const MAX_TERM_LENGTH = 64;

/**
 * The slots that learned one term, ascending, and their counts.
 *
 * @internal
 */
export interface LearnedPostings {
  readonly slots: Uint32Array;
  readonly counts: Float64Array;
}

/**
 * Per learned term: its postings.
 *
 * @internal
 */
export type LearnedField = ReadonlyMap<string, LearnedPostings>;

/** The empty learned field, shared. @internal */
export const NO_LEARNED_FIELD: LearnedField = new Map();

/**
 * The learned terms of a tool an index reads: string keys of at most 64 characters with
 * finite positive counts, the first 64.
 *
 * @throws nothing
 * @internal
 */
export function learnedTermsOf(tool: ToolDefinition): [string, number][] {
  const terms = tool.learnedTerms;
  if (!isRecord(terms)) return [];
  const out: [string, number][] = [];
  for (const term in terms) {
    const count = terms[term];
    if (term === '' || term.length > MAX_TERM_LENGTH) continue;
    if (typeof count !== 'number' || !(count > 0) || !Number.isFinite(count)) continue;
    out.push([term, count]);
    if (out.length >= MAX_TERMS_PER_TOOL) break;
  }
  return out;
}

/**
 * The learned field with the arrivals' terms added (arrival `a` at slot `firstSlot + a`).
 *
 * @throws nothing
 * @internal
 */
export function addLearned(
  base: LearnedField,
  arrivals: readonly ToolDefinition[],
  firstSlot: number,
): LearnedField {
  let added: Map<string, { slots: number[]; counts: number[] }> | undefined;
  for (let a = 0; a < arrivals.length; a++) {
    for (const [term, count] of learnedTermsOf(arrivals[a]!)) {
      added ??= new Map();
      let list = added.get(term);
      if (list === undefined) {
        list = { slots: [], counts: [] };
        added.set(term, list);
      }
      list.slots.push(firstSlot + a);
      list.counts.push(count);
    }
  }
  if (added === undefined) return base;
  const field = new Map(base);
  for (const [term, list] of added) {
    const old = base.get(term);
    const size = (old?.slots.length ?? 0) + list.slots.length;
    const slots = new Uint32Array(size);
    const counts = new Float64Array(size);
    if (old !== undefined) {
      slots.set(old.slots);
      counts.set(old.counts);
    }
    // Arrivals take slots past every old one: the lists stay ascending.
    slots.set(list.slots, size - list.slots.length);
    counts.set(list.counts, size - list.counts.length);
    field.set(term, { slots, counts });
  }
  return field;
}

/**
 * The learned field with slots numbered again (`renumbered[slot]`, -1: dropped).
 *
 * @throws nothing
 * @internal
 */
export function renumberLearned(field: LearnedField, renumbered: Int32Array): LearnedField {
  if (field.size === 0) return field;
  const out = new Map<string, LearnedPostings>();
  for (const [term, postings] of field) {
    const slots: number[] = [];
    const counts: number[] = [];
    for (let i = 0; i < postings.slots.length; i++) {
      const to = renumbered[postings.slots[i]!]!;
      if (to < 0) continue;
      slots.push(to);
      counts.push(postings.counts[i]!);
    }
    if (slots.length > 0) {
      out.set(term, { slots: Uint32Array.from(slots), counts: Float64Array.from(counts) });
    }
  }
  return out;
}
