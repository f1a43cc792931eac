// The saturated BM25F weight of a posting, from its frequency code and its slot's field
// lengths. Tools share few distinct field lengths, so the length norms, and for the
// usual posting (one field, a small frequency) the whole weight, are computed once per
// index and looked up after: a search decodes and scores a posting with a few reads.
// A weight is rounded to a float32: the rankings (and the eval's pinned hashes) were
// made with float32 weights.

import {
  FIELD_COUNT,
  FREQUENCY_BITS,
  MAX_FREQUENCY,
  SINGLE_FIELD_FREQUENCIES,
} from './posting-format.js';

/**
 * A field's weight over its length normalisation: what a term's frequency in the field
 * is multiplied by. One expression for the build and the searcher, so that a weight
 * computed at query time is the float a fresh build would compute.
 *
 * @throws nothing
 * @internal
 */
export function lengthNorm(weight: number, b: number, length: number, average: number): number {
  return weight / (1 - b + (b * length) / average);
}

/**
 * What decides whether a term makes a posting: its weight under the new index's field
 * weights, `b`s and averages.
 *
 * @internal
 */
export interface PostingNorms {
  readonly lengths: Uint16Array;
  readonly weights: Float64Array;
  readonly bs: Float64Array;
  readonly averages: Float64Array;
}

/**
 * A term's BM25F frequency in one slot: its packed field frequencies times the field
 * length norms under `norms.averages`.
 *
 * @param at - where the slot's lengths start in `norms.lengths`
 * @throws nothing
 * @internal
 */
export function fieldFrequency(frequencies: number, at: number, norms: PostingNorms): number {
  const { lengths, weights, bs, averages } = norms;
  let tf = 0;
  for (let f = 0, bits = frequencies; bits !== 0; f++, bits >>>= FREQUENCY_BITS) {
    tf += (bits & MAX_FREQUENCY) * lengthNorm(weights[f]!, bs[f]!, lengths[at + f]!, averages[f]!);
  }
  return tf;
}

/** Slots per field length in a single-field table: a frequency's weight at `frequency`. */
export const FREQUENCY_SLOTS = SINGLE_FIELD_FREQUENCIES + 1;

/**
 * Posting weights of one index, filled as field lengths are met. The single-field
 * weights are read by the searcher's loop itself: `singles[field][length * 32 +
 * frequency]`, NaN until {@link PostingWeights.fill} computed it.
 *
 * @internal
 */
export class PostingWeights {
  /**
   * Per field: the length norm by field length, NaN until {@link PostingWeights.norm}
   * computed it (read by the searcher's loop for postings of several fields).
   */
  readonly norms: Float64Array[] = [];
  /** Per field: the weight of each frequency (1 to 31) at each field length. */
  readonly singles: Float32Array[] = [];
  /** `k1 + 1`, the numerator's factor of {@link PostingWeights.saturate}. */
  readonly k1Plus1: number;

  /**
   * @param weights - per field, its weight
   * @param bs - per field, its `b`
   * @param averages - per field, the index's average length
   * @param k1 - the term-frequency saturation
   * @throws nothing
   */
  constructor(
    private readonly weights: Float64Array,
    private readonly bs: Float64Array,
    private readonly averages: Float64Array,
    readonly k1: number,
  ) {
    this.k1Plus1 = k1 + 1;
    for (let f = 0; f < FIELD_COUNT; f++) {
      this.norms.push(new Float64Array(64).fill(Number.NaN));
      this.singles.push(new Float32Array(16 * FREQUENCY_SLOTS).fill(Number.NaN));
    }
  }

  /**
   * The length norm of field `field` at `length`, computed into `norms` (grown to hold it).
   *
   * @throws nothing
   */
  norm(field: number, length: number): number {
    let table = this.norms[field]!;
    if (length < table.length) {
      const norm = table[length]!;
      if (!Number.isNaN(norm)) return norm;
    } else {
      const grown = new Float64Array(Math.max(length + 1, table.length * 2)).fill(Number.NaN);
      grown.set(table);
      table = grown;
      this.norms[field] = grown;
    }
    const norm = lengthNorm(this.weights[field]!, this.bs[field]!, length, this.averages[field]!);
    table[length] = norm;
    return norm;
  }

  /**
   * Saturates a BM25F frequency, as a float32. The scoring loop (score-postings.ts)
   * spells out the same expression for postings of several fields.
   */
  private saturate(tf: number): number {
    return Math.fround((tf * this.k1Plus1) / (this.k1 + tf));
  }

  /**
   * Computes the weight of a one-field posting into `singles` (grown to hold it).
   *
   * @param field - the field
   * @param length - the slot's length of the field
   * @param frequency - the term's frequency in the field, 1 to 31
   * @returns the weight
   * @throws nothing
   */
  fill(field: number, length: number, frequency: number): number {
    let table = this.singles[field]!;
    const at = length * FREQUENCY_SLOTS + frequency;
    if (at >= table.length) {
      const size = Math.max((length + 1) * FREQUENCY_SLOTS, table.length * 2);
      const grown = new Float32Array(size).fill(Number.NaN);
      grown.set(table);
      table = grown;
      this.singles[field] = grown;
    }
    // Fields before this one hold 0 of the term: they add 0 to the sum.
    const weight = this.saturate(frequency * this.norm(field, length));
    table[at] = weight;
    return weight;
  }
}
