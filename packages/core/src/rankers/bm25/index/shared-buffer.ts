// The one rule of the buffers the indexes patched from one another share (a term's
// postings, the first sentences): each index reads its own prefix of a buffer, so a
// build may append in place only when no other index appended past the prefix it
// starts from; otherwise it appends to a copy of that prefix.

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
