// Analyses the tools that arrive in an index: per tool, its fields' analysed lengths,
// the hashes of the names a query may give exactly, its distinct terms with their
// packed field frequencies, and its first sentence's terms in order (for proximity).
// Read once by the build that places them; the index keeps what it needs. The tools
// lie side by side in a few flat arrays, not in arrays of their own: a typed array per
// tool would carry more object overhead than data.

import type { Analyzer } from '../../../analyzer.js';
import { TOOL_FIELDS, toolFieldTexts } from '../../../analyzer-fields.js';
import type { ToolDefinition } from '../../../types.js';
import { nameHash, normalizeName } from '../exact-names.js';
import { FIELD_COUNT, FREQUENCY_BITS, MAX_FREQUENCY } from '../postings/posting-format.js';
import { firstSentence, writeVarint } from './sentences.js';
import type { TermDictionary } from './term-dictionary.js';

/** The longest field length an index holds (its lengths are 16-bit). */
const MAX_FIELD_LENGTH = 0xffff;

/**
 * The analysed tools of one build, in the order given, side by side in flat arrays.
 *
 * @internal
 */
export interface AnalysedTools {
  readonly count: number;
  /** Per tool and field: the field's analysed length (at most 65,535). */
  readonly lengths: Uint16Array;
  /** Per tool: the hash of its name and of its bare name after `__` (0: none). */
  readonly hashes: Uint32Array;
  /** Per tool: where its terms start in `ids` and `frequencies` (and, last, their end). */
  readonly termStarts: Uint32Array;
  /** The tools' distinct term ids, ascending per tool. */
  readonly ids: Uint32Array;
  /** Per term of `ids`: its packed field frequencies. */
  readonly frequencies: Uint32Array;
  /** The tools' first sentences as an index stores them (see sentences.ts), side by side. */
  readonly sentences: Uint8Array;
  /** Per tool: where its sentence starts in `sentences` (and, last, their end). */
  readonly sentenceStarts: Uint32Array;
}

/**
 * The analysis of a ranker's arrivals into term ids of its dictionary.
 *
 * @internal
 */
export class ToolAnalysis {
  // Per term id: its place among the terms of the tool being analysed, valid when its
  // stamp is the current one (saves a Map per tool). Grown to the dictionary's size.
  private placeOf: Uint32Array = new Uint32Array(1024);
  private placeStamp: Uint32Array = new Uint32Array(1024);
  private stamp = 0;

  /**
   * @throws nothing
   */
  constructor(
    private readonly analyzer: Analyzer,
    readonly dictionary: TermDictionary,
  ) {}

  /**
   * Analyses tools, interning their terms.
   *
   * @throws whatever the analyzer throws; the `RangeError` of a typed array beyond the size limit
   */
  analyse(tools: readonly ToolDefinition[]): AnalysedTools {
    const count = tools.length;
    const lengths = new Uint16Array(count * FIELD_COUNT);
    const hashes = new Uint32Array(count * 2);
    const termStarts = new Uint32Array(count + 1);
    const sentenceStarts = new Uint32Array(count + 1);
    let ids: Uint32Array = new Uint32Array(Math.max(64, count * 16));
    let frequencies: Uint32Array = new Uint32Array(ids.length);
    let sentences = new Uint8Array(Math.max(64, count * 16));
    let termEnd = 0;
    let sentenceAt = 0;
    for (let t = 0; t < count; t++) {
      const tool = tools[t]!;
      const texts = toolFieldTexts(tool);
      const { terms, packed } = this.termsOf(texts, lengths, t * FIELD_COUNT);
      if (termEnd + terms.length > ids.length) {
        const size = Math.max(termEnd + terms.length, ids.length * 2);
        ids = grown(ids, size, termEnd);
        frequencies = grown(frequencies, size, termEnd);
      }
      // Ascending ids: a tool's postings are appended term by term in id order.
      const order = Uint32Array.from(terms).sort();
      for (const id of order) {
        ids[termEnd] = id;
        frequencies[termEnd] = packed[this.placeOf[id]!]!;
        termEnd++;
      }
      termStarts[t + 1] = termEnd;
      // The first sentence's terms are among the description's: only their order is new.
      const sentence = this.analyzer.analyze(firstSentence(texts.description));
      const room = 5 * (1 + sentence.length);
      if (sentenceAt + room > sentences.length) {
        const bytes = new Uint8Array(Math.max(sentenceAt + room, sentences.length * 2));
        bytes.set(sentences.subarray(0, sentenceAt));
        sentences = bytes;
      }
      sentenceAt = writeVarint(sentences, sentenceAt, sentence.length);
      for (const term of sentence) {
        sentenceAt = writeVarint(sentences, sentenceAt, this.dictionary.intern(term));
      }
      sentenceStarts[t + 1] = sentenceAt;
      const name = typeof tool.name === 'string' ? tool.name : '';
      hashes[t * 2] = nameHash(normalizeName(name));
      const bare = name.lastIndexOf('__');
      hashes[t * 2 + 1] = bare >= 0 ? nameHash(normalizeName(name.slice(bare + 2))) : 0;
    }
    return {
      count,
      lengths,
      hashes,
      termStarts,
      ids: ids.subarray(0, termEnd),
      frequencies: frequencies.subarray(0, termEnd),
      sentences: sentences.subarray(0, sentenceAt),
      sentenceStarts,
    };
  }

  /** A tool's distinct term ids in order of first sight and their packed frequencies; writes its field lengths. */
  private termsOf(
    texts: ReturnType<typeof toolFieldTexts>,
    lengths: Uint16Array,
    at: number,
  ): { terms: number[]; packed: number[] } {
    const terms: number[] = [];
    const packed: number[] = [];
    this.stamp = (this.stamp + 1) >>> 0;
    if (this.stamp === 0) {
      this.placeStamp.fill(0);
      this.stamp = 1;
    }
    for (let field = 0; field < FIELD_COUNT; field++) {
      const analysed = this.analyzer.analyze(texts[TOOL_FIELDS[field]!]);
      lengths[at + field] = Math.min(analysed.length, MAX_FIELD_LENGTH);
      const shift = field * FREQUENCY_BITS;
      for (const term of analysed) {
        const id = this.dictionary.intern(term);
        if (id >= this.placeOf.length) this.grow(id);
        let place: number;
        if (this.placeStamp[id] === this.stamp) place = this.placeOf[id]!;
        else {
          place = terms.length;
          this.placeStamp[id] = this.stamp;
          this.placeOf[id] = place;
          terms.push(id);
          packed.push(0);
        }
        const frequency = (packed[place]! >>> shift) & MAX_FREQUENCY;
        if (frequency < MAX_FREQUENCY) packed[place]! += 1 << shift;
      }
    }
    return { terms, packed };
  }

  private grow(id: number): void {
    const size = Math.max(id + 1, this.placeOf.length * 2);
    this.placeOf = grown(this.placeOf, size, this.placeOf.length);
    this.placeStamp = grown(this.placeStamp, size, this.placeStamp.length);
  }
}

/** A copy of the first `kept` entries of `array` in a new array of `size`. */
function grown(array: Uint32Array, size: number, kept: number): Uint32Array {
  const copy = new Uint32Array(size);
  copy.set(array.subarray(0, kept));
  return copy;
}
