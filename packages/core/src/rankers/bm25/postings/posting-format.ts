// The one description of the posting format. A term's postings are a byte list, in
// ascending slot order; a posting is:
//
// - the slot's difference from the posting before (the first: from -1), as a varint
//   (7 bits a byte, low first);
// - the code of the term's packed field frequencies (6 bits a field, at most 63 each):
//   one byte, `field * 31 + frequency - 1`, for the usual single field with a
//   frequency up to 31, else FREQUENCY_ESCAPE and the packed frequencies as a varint.
//
// Small (see the benchmarks guide for the bytes a posting takes), and read in one pass.
// Only this room reads or writes these bytes.

import { TOOL_FIELDS } from '../../../analyzer-fields.js';

/** How many fields a posting's frequencies cover, in the order of `TOOL_FIELDS`. @internal */
export const FIELD_COUNT = TOOL_FIELDS.length;
/** The bits of one field's frequency in a term's packed frequencies. @internal */
export const FREQUENCY_BITS = 6;
/** The largest frequency a field counts for a term (more occurrences count as this). @internal */
export const MAX_FREQUENCY = (1 << FREQUENCY_BITS) - 1;
/** The field whose first sentence proximity reads. @internal */
export const DESCRIPTION_FIELD = TOOL_FIELDS.indexOf('description');

/** The code byte after which a term's packed frequencies follow as a varint. @internal */
export const FREQUENCY_ESCAPE = 255;
/** The frequencies (1 to 31) a one-byte code holds for one field. @internal */
export const SINGLE_FIELD_FREQUENCIES = 31;
/** The most bytes one posting takes: a 5-byte slot difference, a code, a 5-byte varint. @internal */
export const MAX_POSTING_BYTES = 11;

/**
 * The postings of a term: the first `used` bytes of `bytes`. Indexes patched from one
 * another share a buffer, each reading its own prefix of it.
 *
 * @internal
 */
export interface PostingBuffer {
  bytes: Uint8Array;
  used: number;
}

/**
 * Per one-byte code: the packed frequencies it stands for.
 *
 * @internal
 */
export const FREQUENCY_CODES = (() => {
  const codes = new Uint32Array(256);
  for (let field = 0; field < FIELD_COUNT; field++) {
    for (let frequency = 1; frequency <= SINGLE_FIELD_FREQUENCIES; frequency++) {
      codes[field * SINGLE_FIELD_FREQUENCIES + frequency - 1] =
        frequency << (field * FREQUENCY_BITS);
    }
  }
  return codes;
})();

/**
 * Per one-byte code: its field. @internal
 */
export const CODE_FIELD = Uint8Array.from({ length: 256 }, (_, code) =>
  Math.floor(code / SINGLE_FIELD_FREQUENCIES),
);

/**
 * Per one-byte code: its frequency (1 to 31). @internal
 */
export const CODE_FREQUENCY = Uint8Array.from(
  { length: 256 },
  (_, code) => (code % SINGLE_FIELD_FREQUENCIES) + 1,
);

/**
 * The one-byte code of a term's packed field frequencies, or {@link FREQUENCY_ESCAPE}
 * (then the packed frequencies follow as a varint).
 *
 * @throws nothing
 * @internal
 */
export function frequencyCode(frequencies: number): number {
  for (let field = 0; field < FIELD_COUNT; field++) {
    const shift = field * FREQUENCY_BITS;
    const frequency = (frequencies >>> shift) & MAX_FREQUENCY;
    if (frequency === 0) continue;
    return frequencies === frequency << shift && frequency <= SINGLE_FIELD_FREQUENCIES
      ? field * SINGLE_FIELD_FREQUENCIES + frequency - 1
      : FREQUENCY_ESCAPE;
  }
  return FREQUENCY_ESCAPE;
}
