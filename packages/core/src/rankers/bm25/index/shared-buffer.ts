// The one rule of the buffers the indexes patched from one another share (a term's
// postings, the first sentences): each index reads its own prefix of a buffer, so a
// build may append in place only when no other index appended past the prefix it
// starts from; otherwise it appends to a copy of that prefix. A build appends only to
// buffers this module handed it: postings through the posting encoder, anything else
// through `appendBytes`.

import { newPostingBuffer } from '../postings/posting-encoder.js';
import type { PostingBuffer } from '../postings/posting-format.js';

/**
 * A buffer a build may append to after the first `length` bytes of `shared` (none
 * yet: undefined): `shared` itself when nothing was appended past them, else a new
 * buffer of about `room` bytes holding a copy of them.
 *
 * @throws the `RangeError` of `Uint8Array` beyond the array size limit
 * @internal
 */
export function appendableBuffer(
  shared: PostingBuffer | undefined,
  length: number,
  room: number,
): PostingBuffer {
  if (shared !== undefined && shared.used === length) return shared;
  return newPostingBuffer(room, shared?.bytes, length);
}

/**
 * Appends bytes at `buffer.used` of a buffer from {@link appendableBuffer}, growing it
 * (doubling) when full.
 *
 * @returns where the bytes start
 * @throws the `RangeError` of `Uint8Array` beyond the array size limit
 * @internal
 */
export function appendBytes(buffer: PostingBuffer, bytes: Uint8Array): number {
  const at = buffer.used;
  if (at + bytes.length > buffer.bytes.length) {
    const grown = new Uint8Array(Math.max(at + bytes.length, buffer.bytes.length * 2));
    grown.set(buffer.bytes.subarray(0, at));
    buffer.bytes = grown;
  }
  buffer.bytes.set(bytes, at);
  buffer.used = at + bytes.length;
  return at;
}
