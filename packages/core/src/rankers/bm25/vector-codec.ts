// The vector codec: how one tool's analysed fields are laid out in bytes in a slab
// (written once per tool object, memoized), and the reads of that layout that are not
// in the index build's inner loop (field-index.ts decodes the terms inline, for speed).

import type { Analyzer } from '../../analyzer.js';
import { TOOL_FIELDS, toolFieldTexts } from '../../analyzer-fields.js';
import type { ToolDefinition } from '../../types.js';
import { nameHash, normalizeName } from './exact-names.js';
import {
  FIELD_COUNT,
  FREQUENCY_BITS,
  FREQUENCY_ESCAPE,
  frequencyCode,
  MAX_FREQUENCY,
} from './postings/posting-format.js';
import { currentGeneration, internTerm } from './term-dictionary.js';
import type { SlabReader, SlabWriter } from './vector-slab.js';

// One tool's analysed fields, packed in bytes in a slab (unsigned integers as varints:
// 7 bits a byte, low first):
//
// - the term ids of the description's first sentence in order (for proximity): their
//   count, then each id;
// - the count of distinct terms, the analysed length of each field (at most 65,535),
//   and the hashes of the names a query may give exactly (4 bytes each, little-endian);
// - the distinct term ids in ascending order, each as the difference from the one
//   before, followed by the code of its packed field frequencies, as in a posting
//   (see postings/posting-format.ts).

/**
 * Moves a reader at the start of a vector past its first sentence.
 *
 * @internal
 */
export function skipSentence(reader: SlabReader): void {
  let count = reader.varint();
  const bytes = reader.bytes;
  let at = reader.position;
  for (; count > 0; count--) while (bytes[at++]! >= 0x80);
  reader.position = at;
}

/**
 * How often the term ids a, b follow each other in a tool's first sentence (at most 255).
 *
 * @param reader - a reader over the slab's bytes (its position is moved)
 * @param start - where the tool's vector starts in the slab
 * @internal
 */
export function adjacentCount(reader: SlabReader, start: number, a: number, b: number): number {
  reader.position = start;
  let count = 0;
  let previous = -1;
  for (let left = reader.varint(); left > 0; left--) {
    const id = reader.varint();
    if (id === b && previous === a && count < 255) count++;
    previous = id;
  }
  return count;
}

// Scratch space of writeVector: the slot of each term id in the vector being written,
// valid when its stamp is the current one (saves a Map per tool), and the sorted term
// ids. Module-level on purpose: the arrays grow to the size of the process-wide term
// dictionary, and one set serves every ranker (vectors are written synchronously, one
// at a time); a set per ranker would each grow that large. A new dictionary generation
// starts them small again.
let slotOf = new Int32Array(1024);
let slotStamp = new Uint32Array(1024);
let stamp = 0;
let sortedIds = new Uint32Array(256);
let scratchGeneration = 0;

const FIRST_SENTENCE_END = /[.!?\u3002\uff01\uff1f](?=\s|$)|\n/;
const MAX_SENTENCE_LENGTH = 400;

/** The first sentence of a description (up to `. `, `! `, `? `, a line break or 400 characters). */
function firstSentence(description: string): string {
  const text =
    description.length > MAX_SENTENCE_LENGTH
      ? description.slice(0, MAX_SENTENCE_LENGTH)
      : description;
  const end = text.search(FIRST_SENTENCE_END);
  return end < 0 ? text : text.slice(0, end);
}

/**
 * Analyses a tool and writes its vector as the next of a slab.
 *
 * @internal
 */
export function writeVector(tool: ToolDefinition, analyzer: Analyzer, writer: SlabWriter): void {
  if (scratchGeneration !== currentGeneration()) {
    scratchGeneration = currentGeneration();
    slotOf = new Int32Array(1024);
    slotStamp = new Uint32Array(1024);
  }
  const texts = toolFieldTexts(tool);
  const ids: number[] = [];
  const packed: number[] = [];
  const lengths: number[] = [];
  stamp = (stamp + 1) >>> 0;
  if (stamp === 0) {
    slotStamp.fill(0);
    stamp = 1;
  }
  const add = (id: number, shift: number): void => {
    if (id >= slotOf.length) {
      const size = Math.max(id + 1, slotOf.length * 2);
      const grownSlots = new Int32Array(size);
      grownSlots.set(slotOf);
      slotOf = grownSlots;
      const grownStamps = new Uint32Array(size);
      grownStamps.set(slotStamp);
      slotStamp = grownStamps;
    }
    let slot: number;
    if (slotStamp[id] === stamp) slot = slotOf[id]!;
    else {
      slot = ids.length;
      slotStamp[id] = stamp;
      slotOf[id] = slot;
      ids.push(id);
      packed.push(0);
    }
    const frequency = (packed[slot]! >>> shift) & MAX_FREQUENCY;
    if (frequency < MAX_FREQUENCY) packed[slot]! += 1 << shift;
  };
  for (let field = 0; field < FIELD_COUNT; field++) {
    const terms = analyzer.analyze(texts[TOOL_FIELDS[field]!]);
    lengths.push(Math.min(terms.length, 0xffff));
    const shift = field * FREQUENCY_BITS;
    for (const term of terms) add(internTerm(term), shift);
  }
  // The first sentence's terms are among the description's: only their order is new.
  const sentence = analyzer.analyze(firstSentence(texts.description));
  const count = ids.length;
  writer.ensure(5 * (1 + sentence.length) + 5 * (1 + FIELD_COUNT) + 8 + 11 * count);
  writer.varint(sentence.length);
  for (const term of sentence) writer.varint(internTerm(term));
  writer.varint(count);
  for (const length of lengths) writer.varint(length);
  const name = typeof tool.name === 'string' ? tool.name : '';
  writer.uint32(nameHash(normalizeName(name)));
  const bare = name.lastIndexOf('__');
  writer.uint32(bare >= 0 ? nameHash(normalizeName(name.slice(bare + 2))) : 0);
  if (count > sortedIds.length) sortedIds = new Uint32Array(Math.max(count, sortedIds.length * 2));
  for (let slot = 0; slot < count; slot++) sortedIds[slot] = ids[slot]!;
  const sorted = sortedIds.subarray(0, count).sort();
  let previous = 0;
  for (let i = 0; i < count; i++) {
    const id = sorted[i]!;
    writer.varint(id - previous);
    previous = id;
    const frequencies = packed[slotOf[id]!]!;
    const code = frequencyCode(frequencies);
    writer.byte(code);
    if (code === FREQUENCY_ESCAPE) writer.varint(frequencies);
  }
  writer.end();
}
