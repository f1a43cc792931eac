// The first sentences an index keeps for proximity: per slot, the term ids of its
// description's first sentence in order, as varints (7 bits a byte, low first): their
// count, then each id. Indexes patched from one another share the bytes (see
// shared-buffer.ts); a slot's sentence starts at `slotSentence[slot]`.

/** How long a first sentence is at most, in characters. */
const MAX_SENTENCE_LENGTH = 400;
const FIRST_SENTENCE_END = /[.!?\u3002\uff01\uff1f](?=\s|$)|\n/;

/**
 * The first sentence of a description (up to `. `, `! `, `? `, a line break or 400 characters).
 *
 * @throws nothing
 * @internal
 */
export function firstSentence(description: string): string {
  const text =
    description.length > MAX_SENTENCE_LENGTH
      ? description.slice(0, MAX_SENTENCE_LENGTH)
      : description;
  const end = text.search(FIRST_SENTENCE_END);
  return end < 0 ? text : text.slice(0, end);
}

/**
 * Writes an unsigned integer below 2^32 as a varint at `at` (the caller made room: 5
 * bytes at most).
 *
 * @returns where the next byte goes
 * @throws nothing
 * @internal
 */
export function writeVarint(bytes: Uint8Array, at: number, value: number): number {
  let rest = value >>> 0;
  let next = at;
  while (rest >= 0x80) {
    bytes[next++] = (rest & 0x7f) | 0x80;
    rest >>>= 7;
  }
  bytes[next++] = rest;
  return next;
}

/**
 * Where the sentence starting at `start` ends.
 *
 * @throws nothing
 * @internal
 */
export function sentenceEnd(bytes: Uint8Array, start: number): number {
  let at = start;
  let count = 0;
  let shift = 0;
  let byte: number;
  do {
    byte = bytes[at++]!;
    count |= (byte & 0x7f) << shift;
    shift += 7;
  } while (byte >= 0x80);
  for (let left = count >>> 0; left > 0; left--) while (bytes[at++]! >= 0x80);
  return at;
}

/**
 * How often the term ids a, b follow each other in the sentence starting at `start`
 * (at most 255).
 *
 * @throws nothing
 * @internal
 */
export function adjacentCount(bytes: Uint8Array, start: number, a: number, b: number): number {
  let at = start;
  const read = (): number => {
    let byte = bytes[at++]!;
    let value = byte & 0x7f;
    for (let shift = 7; byte >= 0x80; shift += 7) {
      byte = bytes[at++]!;
      value |= (byte & 0x7f) << shift;
    }
    return value >>> 0;
  };
  let count = 0;
  let previous = -1;
  for (let left = read(); left > 0; left--) {
    const id = read();
    if (id === b && previous === a && count < 255) count++;
    previous = id;
  }
  return count;
}
