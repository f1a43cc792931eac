// The field index: the postings of one tool list over stable slots, built from the
// arrivals' analysed vectors, or patched from a previous index for the tools that left
// and arrived (the other tools keep their slot and the postings of untouched terms are
// shared). A vector is read once, when its tool arrives: the index keeps its postings,
// field lengths, name hashes and the terms of its description's first sentence (for
// proximity), not the vector. A tool that leaves is marked dead: its postings stay
// until a compaction, the field length sums lose its lengths, and the document
// frequencies are counted again, lazily, for the terms a search uses.
// Postings carry a tool's packed field frequencies, not a weight: the BM25F weight
// depends on the average field lengths, which change with every edit, so it is computed
// at query time from the slot's field lengths and the index's averages (the same float
// operations as a fresh build), so that a patch does no work per kept tool for them.

import { TOOL_FIELDS } from '../../analyzer-fields.js';
import { changedPositions } from '../../list-changes.js';
import type { ToolDefinition } from '../../types.js';
import { addToNameFilter, createNameFilter, type ToolNames } from './exact-names.js';
import { compactIndex } from './index-compaction.js';
import { countAlivePostings } from './postings/posting-cursor.js';
import { appendPosting, newPostingBuffer, trimPostingBuffer } from './postings/posting-encoder.js';
import {
  FIELD_COUNT,
  FREQUENCY_CODES,
  FREQUENCY_ESCAPE,
  type PostingBuffer,
} from './postings/posting-format.js';
import { fieldFrequency } from './postings/posting-weights.js';
import { buildGroups, patchGroups, type ToolGroups } from './tool-groups.js';
import type { Bm25Tuning } from './tuning.js';
import { skipSentence } from './vector-codec.js';
import { SlabReader, type VectorSlab } from './vector-slab.js';

/**
 * An index over slots: `tools` is in catalog order, everything else by slot.
 *
 * @internal
 */
export interface FieldIndex extends ToolNames, ToolGroups {
  readonly n: number;
  /** Slots in use or freed; scratch arrays of searches are this long. */
  readonly capacity: number;
  readonly generation: number;
  /** The tools in catalog order, and the slot of each position / position of each slot. */
  readonly tools: readonly ToolDefinition[];
  readonly order: Uint32Array;
  readonly position: Uint32Array;
  /**
   * Per term id: its postings, the first `termLength[id]` bytes of its buffer (see
   * `PostingBuffer`); slots of tools that left are included (see `alive`).
   * `termLast[id]` is the slot of the last posting of the prefix (-1: none), where the
   * next append continues.
   */
  readonly termBuffers: readonly (PostingBuffer | undefined)[];
  readonly termLength: Uint32Array;
  readonly termLast: Int32Array;
  /**
   * Per term id: its document frequency (the alive postings) where `termCounted[id]` is
   * 1; else it is counted from the postings when first needed (see `documentFrequency`),
   * which writes both. A patch where tools left cannot tell which terms they held.
   */
  readonly termCount: Uint32Array;
  readonly termCounted: Uint8Array;
  /** Per slot: 1 when its tool is in the list. */
  readonly alive: Uint8Array;
  /** Per field: the average field length the length norms divide by ({@link lengthNorm}). */
  readonly averages: Float64Array;
  /** Per field: the field's weight and `b` of the tuning. */
  readonly fieldWeights: Float64Array;
  readonly fieldBs: Float64Array;
  /** Per slot and field: the field length (as a 16-bit number, as norms read it). */
  readonly lengths: Uint16Array;
  /** The untruncated field lengths of the slots with a field longer than 65,535. */
  readonly longLengths: ReadonlyMap<number, readonly number[]>;
  /** Per field: the sum of the untruncated field lengths of the tools. */
  readonly sums: Float64Array;
  /**
   * The term ids of the slots' descriptions' first sentences (for proximity), each a
   * count and the ids as varints, shared like postings: this index reads the first
   * `sentenceLength` bytes; `slotSentence[slot]` is where the slot's starts.
   */
  readonly sentences: PostingBuffer;
  readonly sentenceLength: number;
  readonly slotSentence: Uint32Array;
  /** The slots of the indexes patched from one another since a fresh build or compaction. */
  readonly family: SlotFamily;
}

/**
 * What the indexes patched from one another share about their slots (a slot is never
 * given to another tool until a compaction starts a new family): the slot each tool
 * that left had, held weakly, so that a tool that comes back takes its slot again, with
 * its postings, instead of being analysed; a tool nobody holds any more is forgotten.
 *
 * @internal
 */
export interface SlotFamily {
  readonly left: WeakMap<ToolDefinition, number>;
}

/**
 * The document frequency of a term in an index: counted from its postings the first
 * time it is asked after a patch where tools left, then remembered in the index.
 *
 * @internal
 */
export function documentFrequency(index: FieldIndex, id: number): number {
  if (id >= index.termCount.length) return 0;
  if (index.termCounted[id] === 1) return index.termCount[id]!;
  const buffer = index.termBuffers[id];
  const count =
    buffer === undefined ? 0 : countAlivePostings(buffer.bytes, index.termLength[id]!, index.alive);
  // A remembered count: the same whenever it is counted, so the index stays as built.
  (index.termCount as Uint32Array)[id] = count;
  (index.termCounted as Uint8Array)[id] = 1;
  return count;
}

/** One vector's header and terms, read into reused scratch arrays. */
class VectorScan {
  readonly lengths = new Float64Array(FIELD_COUNT);
  /** Where the vector's first sentence ends (it starts the vector). */
  sentenceEnd = 0;
  hash0 = 0;
  hash1 = 0;
  count = 0;
  ids = new Uint32Array(64);
  codes = new Uint32Array(64);

  read(reader: SlabReader, slab: VectorSlab, doc: number): void {
    reader.position = slab.starts[doc]!;
    skipSentence(reader);
    this.sentenceEnd = reader.position;
    const count = reader.varint();
    for (let f = 0; f < FIELD_COUNT; f++) this.lengths[f] = reader.varint();
    this.hash0 = reader.uint32();
    this.hash1 = reader.uint32();
    if (count > this.ids.length) {
      this.ids = new Uint32Array(count * 2);
      this.codes = new Uint32Array(count * 2);
    }
    let id = 0;
    for (let t = 0; t < count; t++) {
      id += reader.varint();
      const code = reader.bytes[reader.position++]!;
      this.ids[t] = id;
      this.codes[t] = code === FREQUENCY_ESCAPE ? reader.varint() : FREQUENCY_CODES[code]!;
    }
    this.count = count;
  }
}

/** The averages a fresh build uses, from the sums of the field lengths. */
function averagesOf(sums: Float64Array, n: number): Float64Array {
  const averages = new Float64Array(FIELD_COUNT);
  for (let f = 0; f < FIELD_COUNT; f++) averages[f] = Math.max(1, sums[f]! / Math.max(1, n));
  return averages;
}

/** Whether indexes of this tuning can be patched (posting presence ignores the averages). */
function patchable(tuning: Bm25Tuning): boolean {
  return TOOL_FIELDS.every((field) => tuning.fields[field].b >= 0 && tuning.fields[field].b <= 1);
}

/** The slots of a list in a previous index, from {@link matchSlots}. */
interface SlotMatch {
  /** Per position of the list: its slot in the previous index, -1 when the tool arrives. */
  readonly slots: Int32Array;
  /**
   * The positions whose tool changed when every other tool kept its position in a list
   * of the same length (the usual edit: tools replaced in place); undefined otherwise.
   */
  readonly replaced: number[] | undefined;
  /** The slots of tools that had left and come back: their postings are still there. */
  readonly revived: number[];
}

/**
 * The slot of each tool of `tools` in the previous index (-1: it arrives), matching by
 * object: the same position first, then any other slot that held the same object,
 * alive (the tool moved) or left (it comes back, with the postings it had).
 */
function matchSlots(previous: FieldIndex, tools: readonly ToolDefinition[]): SlotMatch {
  const n = tools.length;
  const old = previous.tools;
  const same = Math.min(n, old.length);
  const missing: number[] = [];
  const revived: number[] = [];
  // The positions the bridge's recorded changes name are the only ones that can differ
  // (at 100,000 tools, reading both whole lists costs more than the rest of a small patch).
  const known = changedPositions(old, tools);
  let slots: Int32Array;
  let claimed: Uint8Array;
  if (known !== undefined) {
    for (const i of known) if (tools[i] !== old[i]) missing.push(i);
    slots = new Int32Array(n);
    slots.set(previous.order);
    if (missing.length === 0) return { slots, replaced: missing, revived };
    for (const i of missing) slots[i] = -1;
    // The alive slots are those of the previous list's positions: all kept but the missing.
    claimed = previous.alive.slice();
    for (const i of missing) claimed[previous.order[i]!] = 0;
  } else {
    slots = new Int32Array(n).fill(-1);
    for (let i = 0; i < same; i++) {
      if (tools[i] === old[i]) slots[i] = previous.order[i]!;
      else missing.push(i);
    }
    for (let i = same; i < n; i++) missing.push(i);
    if (missing.length === 0) {
      return { slots, replaced: n === old.length ? missing : undefined, revived };
    }
    claimed = new Uint8Array(previous.capacity);
    for (let i = 0; i < same; i++) if (slots[i]! >= 0) claimed[slots[i]!] = 1;
  }
  const { alive, capacity } = previous;
  // A tool that left an index of this family comes back to its slot; the others are
  // looked for among the previous list's tools (moved), in one pass.
  let wanted: Map<ToolDefinition, number[]> | undefined;
  for (const i of missing) {
    const tool = tools[i]!;
    const slot = previous.family.left.get(tool);
    if (slot !== undefined && slot < capacity && alive[slot] === 0 && claimed[slot] === 0) {
      slots[i] = slot;
      claimed[slot] = 1;
      revived.push(slot);
      continue;
    }
    wanted ??= new Map();
    const list = wanted.get(tool);
    if (list === undefined) wanted.set(tool, [i]);
    else list.push(i);
  }
  let moved = false;
  // Only the previous positions whose tool is not at the same position now can hold a
  // moved tool: every other slot is claimed. They are those missing below `same`, then
  // every position past it, visited in order as a scan of the whole list would.
  let next = 0;
  for (let p = 0; wanted !== undefined && p < old.length && wanted.size > 0; p++) {
    if (p < same) {
      if (next === missing.length || missing[next]! >= same) p = same;
      else p = missing[next++]!;
      if (p >= old.length) break;
    }
    const positions = wanted.get(old[p]!);
    if (positions === undefined) continue;
    const slot = previous.order[p]!;
    if (claimed[slot] === 1) continue;
    const i = positions.shift()!;
    if (positions.length === 0) wanted.delete(old[p]!);
    slots[i] = slot;
    claimed[slot] = 1;
    moved = true;
  }
  return { slots, replaced: !moved && n === old.length ? missing : undefined, revived };
}

/** Past this share of arrivals, a fresh build costs less than a patch. */
const FRESH_SHARE = 0.5;

/**
 * Builds the index of a tool list, or patches `previous` (an index of this tuning and
 * dictionary generation) into it: the tools that left are marked dead and their lengths
 * taken out of the sums, the arrivals put in, the rest shared. Freed slots are not
 * reused: when they would pass the list's size, the previous index is compacted first
 * (from its postings, without analysing anything again).
 *
 * @param arrivalsSlab - the vectors of the tools that arrive, in catalog order, given the
 *   tools (called once; the slab is read during the build only)
 * @internal
 */
export function indexTools(
  previous: FieldIndex | undefined,
  tools: readonly ToolDefinition[],
  tuning: Bm25Tuning,
  generation: number,
  arrivalsSlab: (arrivals: readonly ToolDefinition[]) => VectorSlab,
): FieldIndex {
  const n = tools.length;
  let base =
    previous !== undefined && previous.generation === generation && patchable(tuning)
      ? previous
      : undefined;
  let match = base === undefined ? undefined : matchSlots(base, tools);
  const arrivingCount = (slots: Int32Array): number => {
    let count = 0;
    if (match?.replaced !== undefined)
      for (const i of match.replaced) count += slots[i]! < 0 ? 1 : 0;
    else for (let i = 0; i < n; i++) if (slots[i]! < 0) count++;
    return count;
  };
  if (base !== undefined && match !== undefined) {
    const arriving = arrivingCount(match.slots);
    if (arriving > n * FRESH_SHARE + 16) {
      base = undefined;
      match = undefined;
    } else if (base.capacity + arriving > 2 * n + 1024) {
      base = compactIndex(base);
      match = matchSlots(base, tools);
    }
  }
  const slots = match?.slots ?? new Int32Array(n).fill(-1);
  // Tools replaced in place: the passes below visit the replaced positions only, and
  // copy what is by position (order, positions) from the previous index.
  const replaced = match?.replaced;
  const revived = match?.revived ?? [];
  const arrivals: ToolDefinition[] = [];
  const positionsToCheck = replaced ?? slots;
  for (let k = 0; k < positionsToCheck.length; k++) {
    const i = replaced === undefined ? k : replaced[k]!;
    if (slots[i]! < 0) arrivals.push(tools[i]!);
  }
  const oldCapacity = base?.capacity ?? 0;
  const capacity = oldCapacity + arrivals.length;
  const slab = arrivalsSlab(arrivals);

  const lengths = new Uint16Array(capacity * FIELD_COUNT);
  const slotSentence = new Uint32Array(capacity);
  const slotHashes = new Uint32Array(capacity * 2);
  const nameFilter = base?.nameFilter ?? createNameFilter(capacity);
  const family: SlotFamily = base?.family ?? { left: new WeakMap() };
  const sums = new Float64Array(FIELD_COUNT);
  let longLengths: Map<number, readonly number[]> | ReadonlyMap<number, readonly number[]> =
    base?.longLengths ?? new Map();
  if (base !== undefined) {
    lengths.set(base.lengths);
    slotSentence.set(base.slotSentence);
    slotHashes.set(base.slotHashes);
    sums.set(base.sums);
  }
  const ownLongLengths = (): Map<number, readonly number[]> => {
    if (longLengths === base?.longLengths) longLengths = new Map(longLengths);
    return longLengths as Map<number, readonly number[]>;
  };

  // The tools that left: their lengths out of the sums.
  const left = new Uint8Array(capacity);
  let leaving: ArrayLike<number> = [];
  if (base !== undefined) {
    // In catalog order of the previous list, as the sums are (integers: exact in any order).
    if (replaced !== undefined) leaving = replaced.map((i) => base.order[i]!);
    else {
      const kept = new Uint8Array(oldCapacity);
      for (let i = 0; i < n; i++) if (slots[i]! >= 0) kept[slots[i]!] = 1;
      const gone: number[] = [];
      for (let p = 0; p < base.n; p++) {
        const slot = base.order[p]!;
        if (kept[slot] === 1 || left[slot] === 1) continue;
        left[slot] = 1;
        gone.push(slot);
      }
      leaving = gone;
    }
    for (let g = 0; g < leaving.length; g++) {
      const slot = leaving[g]!;
      left[slot] = 1;
      const long = base.longLengths.get(slot);
      for (let f = 0; f < FIELD_COUNT; f++) {
        sums[f]! -= long === undefined ? base.lengths[slot * FIELD_COUNT + f]! : long[f]!;
      }
      // The slot keeps its lengths, sentence and postings: the tool may come back.
      family.left.set(base.tools[base.position[slot]!]!, slot);
    }
    // The tools that come back: their lengths into the sums again.
    for (const slot of revived) {
      const long = base.longLengths.get(slot);
      for (let f = 0; f < FIELD_COUNT; f++) {
        sums[f]! += long === undefined ? base.lengths[slot * FIELD_COUNT + f]! : long[f]!;
      }
    }
  }
  // The arrivals: new slots after the old ones, in catalog order, each with its first
  // sentence appended to the sentences.
  const reader = new SlabReader(slab.bytes);
  // Appended in place when no other index appended past the previous one's sentences.
  let sentences: PostingBuffer;
  if (base !== undefined && base.sentences.used === base.sentenceLength) sentences = base.sentences;
  else {
    const length = base?.sentenceLength ?? 0;
    sentences = {
      bytes: new Uint8Array(Math.max(64, length * 2, arrivals.length * 16)),
      used: length,
    };
    if (base !== undefined) sentences.bytes.set(base.sentences.bytes.subarray(0, length));
  }
  const arriving = replaced ?? slots;
  const scan = new VectorScan();
  let maxArrivingId = -1;
  for (let a = 0, k = 0; k < arriving.length; k++) {
    const i = replaced === undefined ? k : replaced[k]!;
    if (slots[i]! >= 0) continue;
    const slot = oldCapacity + a;
    slots[i] = slot;
    scan.read(reader, slab, a);
    const start = slab.starts[a]!;
    const size = scan.sentenceEnd - start;
    if (sentences.used + size > sentences.bytes.length) {
      const grown = new Uint8Array(Math.max(sentences.used + size, sentences.bytes.length * 2));
      grown.set(sentences.bytes.subarray(0, sentences.used));
      sentences.bytes = grown;
    }
    sentences.bytes.set(slab.bytes.subarray(start, scan.sentenceEnd), sentences.used);
    slotSentence[slot] = sentences.used;
    sentences.used += size;
    let long = false;
    for (let f = 0; f < FIELD_COUNT; f++) {
      const length = scan.lengths[f]!;
      lengths[slot * FIELD_COUNT + f] = length;
      sums[f]! += length;
      if (length > 0xffff) long = true;
    }
    if (long) ownLongLengths().set(slot, Array.from(scan.lengths));
    slotHashes[slot * 2] = scan.hash0;
    slotHashes[slot * 2 + 1] = scan.hash1;
    addToNameFilter(nameFilter, scan.hash0);
    addToNameFilter(nameFilter, scan.hash1);
    // Term ids ascend in a vector: its last is its largest.
    if (scan.count > 0 && scan.ids[scan.count - 1]! > maxArrivingId) {
      maxArrivingId = scan.ids[scan.count - 1]!;
    }
    a++;
  }
  // A fresh build's sentences are exact; a patch's keep room to grow.
  if (base === undefined) trimPostingBuffer(sentences);

  // The averages the length norms divide by (computed per posting at query time).
  const averages = averagesOf(sums, n);
  const weights = Float64Array.from(TOOL_FIELDS, (field) => tuning.fields[field].weight);
  const bs = Float64Array.from(TOOL_FIELDS, (field) => tuning.fields[field].b);
  let order: Uint32Array;
  const position = new Uint32Array(capacity);
  const alive = new Uint8Array(capacity);
  if (base !== undefined && replaced !== undefined) {
    order = base.order.slice();
    position.set(base.position);
    alive.set(base.alive);
    for (const i of replaced) {
      const gone = base.order[i]!;
      // A freed slot reads as a fresh array's would: not alive, position 0.
      position[gone] = 0;
      alive[gone] = 0;
    }
  } else {
    order = new Uint32Array(n);
  }
  const positions = replaced ?? slots;
  for (let k = 0; k < positions.length; k++) {
    const i = replaced === undefined ? k : replaced[k]!;
    const slot = slots[i]!;
    order[i] = slot;
    position[slot] = i;
    alive[slot] = 1;
  }

  // The arrivals' postings, appended per term in slot order (arrival slots ascend).
  let vocabulary = base?.termLength.length ?? 0;
  if (maxArrivingId >= vocabulary) vocabulary = maxArrivingId + 1;
  const termBuffers: (PostingBuffer | undefined)[] =
    base === undefined ? [] : base.termBuffers.slice();
  const termLength = new Uint32Array(vocabulary);
  const termLast = new Int32Array(vocabulary).fill(-1);
  const termCount = new Uint32Array(vocabulary);
  const termCounted = new Uint8Array(vocabulary);
  if (base !== undefined) {
    termLength.set(base.termLength);
    termLast.set(base.termLast);
    termCount.set(base.termCount);
    // Which terms the tools that left or came back hold is not kept: counted again.
    if (leaving.length === 0 && revived.length === 0) termCounted.set(base.termCounted);
  } else {
    termCounted.fill(1);
  }
  // The terms this build writes to, each in a buffer it may append to: the term's own
  // when no other index appended past this one's prefix, else a copy of the prefix.
  // Per term: 0 not written yet, 1 appending (room doubles), 2 a new list (trimmed).
  const writing: number[] = [];
  const state = new Uint8Array(vocabulary);
  for (let a = 0; a < arrivals.length; a++) {
    const slot = oldCapacity + a;
    scan.read(reader, slab, a);
    for (let t = 0; t < scan.count; t++) {
      const packed = scan.codes[t]!;
      const tf = fieldFrequency(packed, lengths, slot * FIELD_COUNT, weights, bs, averages);
      // A posting is made when its weight is above 0 (with every b in [0, 1] that does
      // not depend on the averages).
      if (!(tf > 0)) continue;
      const id = scan.ids[t]!;
      let buffer = termBuffers[id];
      if (state[id] === 0) {
        const length = termLength[id]!;
        state[id] = buffer === undefined ? 2 : 1;
        if (buffer === undefined || buffer.used !== length) {
          buffer = newPostingBuffer(length * 2, buffer?.bytes, length);
          termBuffers[id] = buffer;
        }
        writing.push(id);
      }
      appendPosting(buffer!, slot - termLast[id]!, packed);
      termLast[id] = slot;
      termCount[id]!++;
    }
  }
  for (const id of writing) {
    const buffer = termBuffers[id]!;
    termLength[id] = buffer.used;
    // New lists are trimmed to their bytes; lists that grow keep room to double.
    if (state[id] === 2) trimPostingBuffer(buffer);
  }

  const groups =
    (base !== undefined &&
      patchGroups(
        base,
        tools,
        order,
        position,
        capacity,
        oldCapacity,
        left,
        revived,
        replaced === undefined ? undefined : leaving,
      )) ||
    buildGroups(tools, order, capacity);
  return {
    n,
    capacity,
    generation,
    tools,
    order,
    position,
    termBuffers,
    termLength,
    termLast,
    termCount,
    termCounted,
    alive,
    averages,
    fieldWeights: weights,
    fieldBs: bs,
    lengths,
    longLengths,
    sums,
    sentences,
    sentenceLength: sentences.used,
    slotSentence,
    family,
    slotHashes,
    nameFilter,
    ...groups,
  };
}
