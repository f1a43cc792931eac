// The per-slot steps of a build: which slots leave, the field lengths and their sums,
// the name hashes and the first sentences of the arrivals.

import { addToNameFilter, createNameFilter } from '../exact-names.js';
import { trimPostingBuffer } from '../postings/posting-encoder.js';
import { FIELD_COUNT, type PostingBuffer } from '../postings/posting-format.js';
import { appendableBuffer, appendBytes } from './shared-buffer.js';
import type { SlotPlan } from './slot-plan.js';
import type { AnalysedTools } from './tool-analysis.js';

/**
 * The base's slots whose tool left, from {@link departuresOf}.
 *
 * @internal
 */
export interface Departures {
  /** Per slot of the new index: 1 when its tool left. */
  readonly left: Uint8Array;
  /** The slots that left, in the base's catalog order. */
  readonly leaving: ArrayLike<number>;
}

/**
 * The slots whose tool is not in the new list.
 *
 * @throws the `RangeError` of a typed array beyond the size limit
 * @internal
 */
export function departuresOf(plan: SlotPlan): Departures {
  const { base, replaced, slots, oldCapacity } = plan;
  const left = new Uint8Array(plan.capacity);
  if (base === undefined) return { left, leaving: [] };
  let leaving: ArrayLike<number>;
  if (replaced !== undefined) leaving = replaced.map((i) => base.order[i]!);
  else {
    const kept = new Uint8Array(oldCapacity);
    for (let i = 0; i < slots.length; i++) if (slots[i]! < oldCapacity) kept[slots[i]!] = 1;
    const gone: number[] = [];
    for (let p = 0; p < base.n; p++) {
      const slot = base.order[p]!;
      if (kept[slot] === 1 || left[slot] === 1) continue;
      left[slot] = 1;
      gone.push(slot);
    }
    leaving = gone;
  }
  for (let g = 0; g < leaving.length; g++) left[leaving[g]!] = 1;
  return { left, leaving };
}

/**
 * The per-slot fields of a build.
 *
 * @internal
 */
export interface SlotFields {
  /** Per slot and field: the field length. */
  readonly lengths: Uint16Array;
  /** Per field: the sum of the field lengths of the list's tools. */
  readonly sums: Float64Array;
  readonly slotHashes: Uint32Array;
  readonly nameFilter: Uint32Array;
  readonly sentences: PostingBuffer;
  readonly slotSentence: Uint32Array;
}

/**
 * The base's per-slot fields with the arrivals' put in (new slots, in catalog order),
 * and the sums without the tools that left and with those that came back or arrived.
 * The name filter and the sentences are the base's, appended to where they may be
 * (see shared-buffer.ts).
 *
 * @throws the `RangeError` of a typed array beyond the size limit
 * @internal
 */
export function placeFields(
  plan: SlotPlan,
  departures: Departures,
  analysed: AnalysedTools,
): SlotFields {
  const { base, capacity, oldCapacity } = plan;
  const lengths = new Uint16Array(capacity * FIELD_COUNT);
  const slotSentence = new Uint32Array(capacity);
  const slotHashes = new Uint32Array(capacity * 2);
  const nameFilter = base?.nameFilter ?? createNameFilter(capacity);
  const sums = new Float64Array(FIELD_COUNT);
  if (base !== undefined) {
    lengths.set(base.lengths);
    slotSentence.set(base.slotSentence);
    slotHashes.set(base.slotHashes);
    sums.set(base.sums);
    // In catalog order of the previous list, as the sums are (integers: exact in any order).
    const { leaving } = departures;
    for (let g = 0; g < leaving.length; g++) {
      const at = leaving[g]! * FIELD_COUNT;
      for (let f = 0; f < FIELD_COUNT; f++) sums[f]! -= base.lengths[at + f]!;
    }
    for (const slot of plan.revived) {
      const at = slot * FIELD_COUNT;
      for (let f = 0; f < FIELD_COUNT; f++) sums[f]! += base.lengths[at + f]!;
    }
  }
  const sentences = appendableBuffer(
    base?.sentences,
    base?.sentenceLength ?? 0,
    Math.max(64, (base?.sentenceLength ?? 0) * 2, analysed.count * 16),
  );
  for (let a = 0; a < analysed.count; a++) {
    const slot = oldCapacity + a;
    const sentence = analysed.sentences.subarray(
      analysed.sentenceStarts[a]!,
      analysed.sentenceStarts[a + 1]!,
    );
    slotSentence[slot] = appendBytes(sentences, sentence);
    for (let f = 0; f < FIELD_COUNT; f++) {
      const length = analysed.lengths[a * FIELD_COUNT + f]!;
      lengths[slot * FIELD_COUNT + f] = length;
      sums[f]! += length;
    }
    slotHashes[slot * 2] = analysed.hashes[a * 2]!;
    slotHashes[slot * 2 + 1] = analysed.hashes[a * 2 + 1]!;
    addToNameFilter(nameFilter, analysed.hashes[a * 2]!);
    addToNameFilter(nameFilter, analysed.hashes[a * 2 + 1]!);
  }
  // A fresh build's sentences are exact; a patch's keep room to grow.
  if (base === undefined) trimPostingBuffer(sentences);
  return { lengths, sums, slotHashes, nameFilter, sentences, slotSentence };
}

/**
 * The averages the length norms divide by, from the sums of the field lengths.
 *
 * @throws nothing
 * @internal
 */
export function averagesOf(sums: Float64Array, n: number): Float64Array {
  const averages = new Float64Array(FIELD_COUNT);
  for (let f = 0; f < FIELD_COUNT; f++) averages[f] = Math.max(1, sums[f]! / Math.max(1, n));
  return averages;
}
