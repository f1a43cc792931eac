// The loop every search spends in: one query term's postings decoded inline (the
// format of posting-format.ts, as PostingCursor reads it) and scored into the slots'
// scores, every array a local.

import {
  CODE_FIELD,
  CODE_FREQUENCY,
  DESCRIPTION_FIELD,
  FIELD_COUNT,
  FREQUENCY_BITS,
  FREQUENCY_ESCAPE,
  MAX_FREQUENCY,
} from './posting-format.js';
import { FREQUENCY_SLOTS, type PostingWeights } from './posting-weights.js';

const DESCRIPTION_SHIFT = DESCRIPTION_FIELD * FREQUENCY_BITS;

/**
 * One query term to score: the first `end` bytes of its posting list, its idf (times
 * its query weight) and the bit it sets in the term masks (0: none).
 *
 * @internal
 */
export interface ScoredTerm {
  readonly bytes: Uint8Array;
  readonly end: number;
  readonly idf: number;
  /** Set in `termMask[slot]` for each slot holding the term in its description. */
  readonly bit: number;
}

/**
 * What a search writes per slot: the scores, which slots it touched (`seen`, and the
 * first `touchedCount` entries of `touched`, in touch order) and the query terms each
 * holds in its description (`termMask`).
 *
 * @internal
 */
export interface SlotScores {
  readonly scores: Float64Array;
  readonly seen: Uint8Array;
  readonly touched: Uint32Array;
  readonly termMask: Uint16Array;
  touchedCount: number;
}

/**
 * What scoring reads of an index per slot: whether its tool is in the list, and its
 * field lengths (`FIELD_COUNT` a slot).
 *
 * @internal
 */
export interface ScoredSlots {
  readonly alive: Uint8Array;
  readonly lengths: Uint16Array;
}

/**
 * Adds a term's weight times its idf to the score of each alive slot of its postings,
 * marking the slots it touches.
 *
 * @throws nothing
 * @internal
 */
export function scorePostings(
  term: ScoredTerm,
  slots: ScoredSlots,
  weights: PostingWeights,
  into: SlotScores,
): void {
  const { bytes, end, idf, bit } = term;
  const { alive, lengths } = slots;
  const { scores, seen, touched, termMask } = into;
  const singles = weights.singles;
  const norms = weights.norms;
  const k1 = weights.k1;
  const k1Plus1 = weights.k1Plus1;
  let count = into.touchedCount;
  let slot = -1;
  for (let at = 0; at < end; ) {
    let byte = bytes[at++]!;
    let delta = byte & 0x7f;
    for (let shift = 7; byte >= 0x80; shift += 7) {
      byte = bytes[at++]!;
      delta |= (byte & 0x7f) << shift;
    }
    slot += delta >>> 0;
    const code = bytes[at++]!;
    let weight: number;
    if (code !== FREQUENCY_ESCAPE) {
      if (alive[slot] === 0) continue;
      const field = CODE_FIELD[code]!;
      const length = lengths[slot * FIELD_COUNT + field]!;
      const frequency = CODE_FREQUENCY[code]!;
      const table = singles[field]!;
      const cell = length * FREQUENCY_SLOTS + frequency;
      weight = cell < table.length ? table[cell]! : Number.NaN;
      if (Number.isNaN(weight)) weight = weights.fill(field, length, frequency);
      if (bit !== 0 && field === DESCRIPTION_FIELD) termMask[slot]! |= bit;
    } else {
      byte = bytes[at++]!;
      let packed = byte & 0x7f;
      for (let shift = 7; byte >= 0x80; shift += 7) {
        byte = bytes[at++]!;
        packed |= (byte & 0x7f) << shift;
      }
      if (alive[slot] === 0) continue;
      // A term in several fields (the escaped postings): the norms summed in
      // field order and saturated as PostingWeights.fill does, the same float operations.
      const row = slot * FIELD_COUNT;
      let tf = 0;
      for (let f = 0, bits = packed >>> 0; bits !== 0; f++, bits >>>= FREQUENCY_BITS) {
        const frequency = bits & MAX_FREQUENCY;
        if (frequency === 0) continue;
        const length = lengths[row + f]!;
        const table = norms[f]!;
        let norm = length < table.length ? table[length]! : Number.NaN;
        if (Number.isNaN(norm)) norm = weights.norm(f, length);
        tf += frequency * norm;
      }
      weight = Math.fround((tf * k1Plus1) / (k1 + tf));
      if (bit !== 0 && ((packed >>> DESCRIPTION_SHIFT) & MAX_FREQUENCY) !== 0) {
        termMask[slot]! |= bit;
      }
    }
    if (seen[slot] === 0) {
      seen[slot] = 1;
      touched[count++] = slot;
    }
    scores[slot]! += idf * weight;
  }
  into.touchedCount = count;
}
