// Writes postings (the format is described in posting-format.ts).

import { PostingCursor } from './posting-cursor.js';
import {
  FREQUENCY_ESCAPE,
  frequencyCode,
  MAX_POSTING_BYTES,
  type PostingBuffer,
} from './posting-format.js';

/**
 * Appends one posting at `buffer.used`, growing the buffer (doubling) when it is full.
 *
 * @param delta - the slot's difference from the posting before (from -1 for the first)
 * @param frequencies - the packed field frequencies
 * @throws the `RangeError` of `Uint8Array` when the buffer would pass the array size limit
 * @internal
 */
export function appendPosting(buffer: PostingBuffer, delta: number, frequencies: number): void {
  let at = buffer.used;
  if (at + MAX_POSTING_BYTES > buffer.bytes.length) {
    const grown = new Uint8Array(Math.max(at + MAX_POSTING_BYTES, buffer.bytes.length * 2));
    grown.set(buffer.bytes.subarray(0, at));
    buffer.bytes = grown;
  }
  const bytes = buffer.bytes;
  let rest = delta;
  while (rest >= 0x80) {
    bytes[at++] = (rest & 0x7f) | 0x80;
    rest >>>= 7;
  }
  bytes[at++] = rest;
  const code = frequencyCode(frequencies);
  bytes[at++] = code;
  if (code === FREQUENCY_ESCAPE) {
    rest = frequencies >>> 0;
    while (rest >= 0x80) {
      bytes[at++] = (rest & 0x7f) | 0x80;
      rest >>>= 7;
    }
    bytes[at++] = rest;
  }
  buffer.used = at;
}

/**
 * A new buffer with room for about `bytes` bytes, holding a copy of the first `used`
 * bytes of `from` when given.
 *
 * @throws the `RangeError` of `Uint8Array` beyond the array size limit
 * @internal
 */
export function newPostingBuffer(bytes: number, from?: Uint8Array, used = 0): PostingBuffer {
  const buffer = { bytes: new Uint8Array(Math.max(16, bytes)), used };
  if (from !== undefined) buffer.bytes.set(from.subarray(0, used));
  return buffer;
}

/**
 * Trims a buffer's bytes to those used (a list that is not appended to again).
 *
 * @throws nothing
 * @internal
 */
export function trimPostingBuffer(buffer: PostingBuffer): void {
  if (buffer.bytes.length > buffer.used) buffer.bytes = buffer.bytes.slice(0, buffer.used);
}

/** The postings {@link renumberPostings} kept, in a buffer of exactly their bytes. */
export interface RenumberedPostings {
  readonly buffer: PostingBuffer;
  /** The new slot of the last posting (-1: none). */
  readonly last: number;
  readonly count: number;
}

/**
 * The postings of the first `end` bytes of `bytes` whose slot has a new number
 * (`renumbered[slot] >= 0`), with that number; new numbers keep the slots' order.
 *
 * @throws the `RangeError` of `Uint8Array` beyond the array size limit
 * @internal
 */
export function renumberPostings(
  bytes: Uint8Array,
  end: number,
  renumbered: Int32Array,
): RenumberedPostings {
  // Renumbered differences are never longer than the old ones: the old size is room enough.
  const buffer = newPostingBuffer(end + MAX_POSTING_BYTES);
  const cursor = new PostingCursor().open(bytes, end);
  let last = -1;
  let count = 0;
  while (cursor.next()) {
    const to = renumbered[cursor.slot]!;
    if (to < 0) continue;
    appendPosting(buffer, to - last, cursor.frequencies);
    last = to;
    count++;
  }
  trimPostingBuffer(buffer);
  return { buffer, last, count };
}
