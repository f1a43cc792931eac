// The field index: the postings of one tool list, built from the tools' vectors in a
// slab. Each posting carries its saturated BM25F weight, summed over the fields with
// their weights and length normalisation, so that a query only adds idf × weight.

import { TOOL_FIELDS } from '../../analyzer-fields.js';
import type { ToolDefinition } from '../../types.js';
import type { ToolNames } from './exact-names.js';
import { currentTerms } from './term-dictionary.js';
import type { Bm25Tuning } from './tuning.js';
import {
  FIELD_COUNT,
  FREQUENCY_BITS,
  FREQUENCY_CODES,
  FREQUENCY_ESCAPE,
  MAX_FREQUENCY,
  skipSentence,
} from './vector-codec.js';
import { SlabReader, type VectorSlab } from './vector-slab.js';

/**
 * Postings in compressed-row form over the global term ids, plus what queries need.
 *
 * @internal
 */
export interface FieldIndex extends ToolNames {
  readonly n: number;
  /** `offsets[id]..offsets[id + 1]` are the postings of term `id`. */
  readonly offsets: Uint32Array;
  readonly docs: Uint32Array;
  /** The saturated BM25F weight of each posting (the idf is applied at query time). */
  readonly weights: Float32Array;
  /** Each tool's group, or -1; and each group's tools. */
  readonly groupOf: Int32Array;
  readonly groupMembers: readonly (readonly number[])[];
  /** Each tool's vector (proximity reads the order of its first sentence). */
  readonly slab: VectorSlab;
}

/** A tool's group: its toolset, else the `server` of a `server__tool` name. */
function groupKey(tool: ToolDefinition): string | undefined {
  if (typeof tool.toolset === 'string' && tool.toolset !== '') return tool.toolset;
  const split = tool.name.indexOf('__');
  return split > 0 ? tool.name.slice(0, split) : undefined;
}

/**
 * Builds the index of a tool list from its slab (vector `doc` is tool `doc`'s).
 *
 * @internal
 */
export function buildIndex(
  tools: readonly ToolDefinition[],
  slab: VectorSlab,
  tuning: Bm25Tuning,
): FieldIndex {
  const n = tools.length;
  const { bytes, starts } = slab;
  const codes = FREQUENCY_CODES;
  const weights = TOOL_FIELDS.map((field) => tuning.fields[field].weight);
  const bs = TOOL_FIELDS.map((field) => tuning.fields[field].b);
  const averages = new Float64Array(FIELD_COUNT);
  let postingCount = 0;
  // The name hashes of the tools side by side, so that an exact-name lookup reads one array.
  const nameHashes = new Uint32Array(n * 2);
  // The headers first: field lengths (for the averages), name hashes, where terms start.
  const lengths = new Uint16Array(n * FIELD_COUNT);
  const termsAt = new Uint32Array(n);
  const termCounts = new Uint32Array(n);
  const reader = new SlabReader(bytes);
  for (let doc = 0; doc < n; doc++) {
    reader.position = starts[doc]!;
    skipSentence(reader);
    const count = reader.varint();
    for (let f = 0; f < FIELD_COUNT; f++) {
      const length = reader.varint();
      lengths[doc * FIELD_COUNT + f] = length;
      averages[f]! += length;
    }
    nameHashes[doc * 2] = reader.uint32();
    nameHashes[doc * 2 + 1] = reader.uint32();
    termsAt[doc] = reader.position;
    termCounts[doc] = count;
    postingCount += count;
  }
  for (let f = 0; f < FIELD_COUNT; f++) averages[f] = Math.max(1, averages[f]! / Math.max(1, n));

  // Then every term once, in catalog order: its posting's weight goes to temporary
  // arrays, counted per term; a term seen only in zero-weight fields has no posting.
  // Every id is below the dictionary's size (the slab is of its generation).
  const counts = new Uint32Array(currentTerms().size + 1);
  const termOf = new Uint32Array(postingCount);
  const docOf = new Uint32Array(postingCount);
  const weightOf = new Float32Array(postingCount);
  const k1 = tuning.k1;
  const norms = new Float64Array(FIELD_COUNT);
  let vocabulary = 0;
  let emitted = 0;
  for (let doc = 0; doc < n; doc++) {
    for (let f = 0; f < FIELD_COUNT; f++) {
      const length = lengths[doc * FIELD_COUNT + f]!;
      norms[f] = weights[f]! / (1 - bs[f]! + (bs[f]! * length) / averages[f]!);
    }
    // Varints read inline: one byte in the usual case.
    let read = termsAt[doc]!;
    const count = termCounts[doc]!;
    let id = 0;
    for (let t = 0; t < count; t++) {
      let delta = bytes[read++]!;
      if (delta >= 0x80) {
        reader.position = read - 1;
        delta = reader.varint();
        read = reader.position;
      }
      id += delta;
      const code = bytes[read++]!;
      let frequencies = codes[code]!;
      if (code === FREQUENCY_ESCAPE) {
        reader.position = read;
        frequencies = reader.varint();
        read = reader.position;
      }
      let tf = 0;
      // Fields in order until no frequency is left (most terms sit in the first few).
      for (let f = 0, bits = frequencies; bits !== 0; f++, bits >>>= FREQUENCY_BITS) {
        tf += (bits & MAX_FREQUENCY) * norms[f]!;
      }
      if (!(tf > 0)) continue;
      termOf[emitted] = id;
      docOf[emitted] = doc;
      weightOf[emitted] = (tf * (k1 + 1)) / (k1 + tf);
      counts[id + 1]!++;
      emitted++;
    }
    if (count > 0 && id >= vocabulary) vocabulary = id + 1;
  }

  // Postings in compressed-row form: each term's postings in catalog order.
  const offsets = counts.slice(0, vocabulary + 1);
  for (let id = 0; id < vocabulary; id++) offsets[id + 1]! += offsets[id]!;
  const cursor = offsets.slice(0, vocabulary);
  const docs = new Uint32Array(emitted);
  const postingWeights = new Float32Array(emitted);
  for (let i = 0; i < emitted; i++) {
    const at = cursor[termOf[i]!]!++;
    docs[at] = docOf[i]!;
    postingWeights[at] = weightOf[i]!;
  }

  const groupOf = new Int32Array(n).fill(-1);
  const groupMembers: number[][] = [];
  const groupIds = new Map<string, number>();
  for (let doc = 0; doc < n; doc++) {
    const key = groupKey(tools[doc]!);
    if (key === undefined) continue;
    let group = groupIds.get(key);
    if (group === undefined) {
      group = groupMembers.length;
      groupIds.set(key, group);
      groupMembers.push([]);
    }
    groupOf[doc] = group;
    groupMembers[group]!.push(doc);
  }
  const names = tools.map((tool) => tool.name);
  return {
    n,
    names,
    offsets,
    docs,
    weights: postingWeights,
    nameHashes,
    groupOf,
    groupMembers,
    slab,
  };
}
