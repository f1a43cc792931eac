// Appends postings to a term's buffer (the layout is described at `PostingBuffer`).

import type { PostingBuffer } from './field-index.js';
import { FREQUENCY_ESCAPE, frequencyCode } from './vector-codec.js';

/** The most bytes one posting takes: a 5-byte slot difference, a code, a 5-byte varint. */
const MAX_POSTING_BYTES = 11;

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
 * A new buffer with room for about `bytes` bytes, empty.
 *
 * @throws the `RangeError` of `Uint8Array` beyond the array size limit
 * @internal
 */
export function newPostingBuffer(bytes: number): PostingBuffer {
  return { bytes: new Uint8Array(Math.max(16, bytes)), used: 0 };
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
