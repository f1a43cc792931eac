// The field index: the postings of one tool list over stable slots, and what scoring
// reads per slot. An index is a snapshot: a patch (index-tools.ts) makes a new one from
// it for the tools that left and arrived, sharing what did not change (the other tools
// keep their slot, the postings of untouched terms are shared). A tool that leaves is
// marked dead: its postings stay until a compaction, the field length sums lose its
// lengths, and the document frequencies are counted again, lazily, for the terms a
// search uses (the one part of an index a search writes: a memo, the same whenever it
// is counted).
// Postings carry a tool's packed field frequencies, not a weight: the BM25F weight
// depends on the average field lengths, which change with every edit, so it is computed
// at query time from the slot's field lengths and the index's averages (the same float
// operations as a fresh build), so that a patch does no work per kept tool for them.

import type { ToolDefinition } from '../../../types.js';
import type { ToolNames } from '../exact-names.js';
import { countAlivePostings } from '../postings/posting-cursor.js';
import type { PostingBuffer } from '../postings/posting-format.js';
import type { ToolGroups } from '../tool-groups.js';
import type { LearnedField } from './learned-field.js';

/**
 * An index over slots: `tools` is in catalog order, everything else by slot.
 *
 * @internal
 */
export interface FieldIndex extends ToolNames, ToolGroups {
  readonly n: number;
  /** Slots in use or freed; scratch arrays of searches are this long. */
  readonly capacity: number;
  /** The term ids of the dictionary the index was built with. */
  readonly terms: ReadonlyMap<string, number>;
  /** The tools in catalog order, and the slot of each position / position of each slot. */
  readonly tools: readonly ToolDefinition[];
  readonly order: Uint32Array;
  readonly position: Uint32Array;
  /**
   * Per term id: its postings, the first `termLength[id]` bytes of its buffer (shared,
   * see shared-buffer.ts); slots of tools that left are included (see `alive`).
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
  /** Per field: the average field length the length norms divide by (`lengthNorm`). */
  readonly averages: Float64Array;
  /** Per field: the field's weight and `b` of the tuning. */
  readonly fieldWeights: Float64Array;
  readonly fieldBs: Float64Array;
  /** Per slot and field: the field length. */
  readonly lengths: Uint16Array;
  /** Per field: the sum of the field lengths of the tools. */
  readonly sums: Float64Array;
  /**
   * The first sentences of the slots' descriptions (see sentences.ts), shared like
   * postings: this index reads the first `sentenceLength` bytes; `slotSentence[slot]`
   * is where the slot's starts.
   */
  readonly sentences: PostingBuffer;
  readonly sentenceLength: number;
  readonly slotSentence: Uint32Array;
  /** The learned terms of the slots' tools (see learned-field.ts). */
  readonly learned: LearnedField;
  /**
   * Per learned term: how many alive slots learned it, counted when a search first needs
   * it (a memo of this index, like `termCount`).
   */
  readonly learnedCount: Map<string, number>;
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
 * @throws nothing
 * @internal
 */
export function documentFrequency(index: FieldIndex, id: number): number {
  if (id >= index.termCount.length) return 0;
  if (index.termCounted[id] === 1) return index.termCount[id]!;
  const buffer = index.termBuffers[id];
  const count =
    buffer === undefined ? 0 : countAlivePostings(buffer.bytes, index.termLength[id]!, index.alive);
  index.termCount[id] = count;
  index.termCounted[id] = 1;
  return count;
}
