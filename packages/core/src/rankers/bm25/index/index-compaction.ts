// Compaction of a field index: the slots of tools that left are dropped and the others
// numbered again, from the index itself (its postings, lengths, hashes and sentences),
// so that a long run of patches never analyses a kept tool again.

import { addToNameFilter, createNameFilter } from '../exact-names.js';
import { renumberPostings } from '../postings/posting-encoder.js';
import { FIELD_COUNT, type PostingBuffer } from '../postings/posting-format.js';
import { buildGroups } from '../tool-groups.js';
import type { FieldIndex } from './field-index.js';
import { renumberLearned } from './learned-field.js';
import { sentenceEnd } from './sentences.js';

/**
 * The index with its alive slots only, numbered in their old order (postings stay in
 * slot order, so each list is copied in one pass): every search answers as before.
 *
 * @throws the `RangeError` of a typed array beyond the size limit
 * @internal
 */
export function compactIndex(index: FieldIndex): FieldIndex {
  const { capacity, alive, n } = index;
  const renumbered = new Int32Array(capacity).fill(-1);
  let count = 0;
  for (let slot = 0; slot < capacity; slot++) if (alive[slot] === 1) renumbered[slot] = count++;

  const lengths = new Uint16Array(count * FIELD_COUNT);
  const slotHashes = new Uint32Array(count * 2);
  const position = new Uint32Array(count);
  const slotSentence = new Uint32Array(count);
  const sentences = new Uint8Array(index.sentenceLength);
  let sentenceLength = 0;
  for (let slot = 0; slot < capacity; slot++) {
    const to = renumbered[slot]!;
    if (to < 0) continue;
    lengths.set(
      index.lengths.subarray(slot * FIELD_COUNT, (slot + 1) * FIELD_COUNT),
      to * FIELD_COUNT,
    );
    slotHashes[to * 2] = index.slotHashes[slot * 2]!;
    slotHashes[to * 2 + 1] = index.slotHashes[slot * 2 + 1]!;
    position[to] = index.position[slot]!;
    slotSentence[to] = sentenceLength;
    const start = index.slotSentence[slot]!;
    const end = sentenceEnd(index.sentences.bytes, start);
    sentences.set(index.sentences.bytes.subarray(start, end), sentenceLength);
    sentenceLength += end - start;
  }
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = renumbered[index.order[i]!]!;

  const vocabulary = index.termLength.length;
  const termBuffers: (PostingBuffer | undefined)[] = new Array(vocabulary).fill(undefined);
  const termLength = new Uint32Array(vocabulary);
  const termLast = new Int32Array(vocabulary).fill(-1);
  const termCount = new Uint32Array(vocabulary);
  for (let id = 0; id < vocabulary; id++) {
    const buffer = index.termBuffers[id];
    if (buffer === undefined) continue;
    const kept = renumberPostings(buffer.bytes, index.termLength[id]!, renumbered);
    if (kept.count === 0) continue;
    termBuffers[id] = kept.buffer;
    termLength[id] = kept.buffer.used;
    termLast[id] = kept.last;
    termCount[id] = kept.count;
  }
  return {
    n,
    capacity: count,
    terms: index.terms,
    tools: index.tools,
    order,
    position,
    termBuffers,
    termLength,
    termLast,
    termCount,
    termCounted: new Uint8Array(vocabulary).fill(1),
    alive: new Uint8Array(count).fill(1),
    averages: index.averages,
    fieldWeights: index.fieldWeights,
    fieldBs: index.fieldBs,
    lengths,
    sums: index.sums,
    sentences: { bytes: sentences.slice(0, sentenceLength), used: sentenceLength },
    sentenceLength,
    slotSentence,
    learned: renumberLearned(index.learned, renumbered),
    learnedCount: new Map(),
    // Slots are numbered again: a new family, whose tools that left are forgotten.
    family: { left: new WeakMap() },
    slotHashes,
    // A filter of the alive slots' names alone: the old one also holds every name that
    // arrived and left since the last fresh build.
    nameFilter: filterOf(slotHashes, count),
    ...buildGroups(index.tools, order, count),
  };
}

/** A name filter of `slots` slots' hashes. */
function filterOf(slotHashes: Uint32Array, slots: number): Uint32Array {
  const filter = createNameFilter(slots);
  for (let at = 0; at < slots * 2; at++) addToNameFilter(filter, slotHashes[at]!);
  return filter;
}
