// Reads postings (the format is described in posting-format.ts) one at a time.

import { FREQUENCY_CODES, FREQUENCY_ESCAPE } from './posting-format.js';

/**
 * A cursor over the first `end` bytes of a posting buffer: each {@link PostingCursor.next}
 * moves to the next posting and sets its slot and packed field frequencies. One cursor
 * is reused for every list a search reads (nothing is allocated per posting).
 *
 * @internal
 */
export class PostingCursor {
  /** The slot of the current posting (-1 before the first). */
  slot = -1;
  /** The packed field frequencies of the current posting. */
  frequencies = 0;
  private bytes: Uint8Array = new Uint8Array(0);
  private at = 0;
  private end = 0;

  /**
   * Starts reading a list.
   *
   * @param bytes - the list's buffer
   * @param end - how many of its bytes belong to the index read
   * @returns this cursor
   * @throws nothing
   */
  open(bytes: Uint8Array, end: number): this {
    this.bytes = bytes;
    this.at = 0;
    this.end = end;
    this.slot = -1;
    this.frequencies = 0;
    return this;
  }

  /**
   * Moves to the next posting.
   *
   * @returns false at the end of the list
   * @throws nothing
   */
  next(): boolean {
    let at = this.at;
    if (at >= this.end) return false;
    const bytes = this.bytes;
    let byte = bytes[at++]!;
    let delta = byte & 0x7f;
    if (byte >= 0x80) {
      let shift = 7;
      do {
        byte = bytes[at++]!;
        delta |= (byte & 0x7f) << shift;
        shift += 7;
      } while (byte >= 0x80);
      delta >>>= 0;
    }
    this.slot += delta;
    const code = bytes[at++]!;
    if (code === FREQUENCY_ESCAPE) {
      byte = bytes[at++]!;
      let packed = byte & 0x7f;
      let shift = 7;
      while (byte >= 0x80) {
        byte = bytes[at++]!;
        packed |= (byte & 0x7f) << shift;
        shift += 7;
      }
      this.frequencies = packed >>> 0;
    } else {
      this.frequencies = FREQUENCY_CODES[code]!;
    }
    this.at = at;
    return true;
  }
}

/**
 * How many postings of the first `end` bytes of `bytes` have an alive slot
 * (`alive[slot] === 1`): a term's document frequency.
 *
 * @throws nothing
 * @internal
 */
export function countAlivePostings(bytes: Uint8Array, end: number, alive: Uint8Array): number {
  let count = 0;
  let slot = -1;
  for (let at = 0; at < end; ) {
    let byte = bytes[at++]!;
    let delta = byte & 0x7f;
    for (let shift = 7; byte >= 0x80; shift += 7) {
      byte = bytes[at++]!;
      delta |= (byte & 0x7f) << shift;
    }
    slot += delta >>> 0;
    // Past the code (and the packed frequencies after an escape): only slots count.
    if (bytes[at++] === FREQUENCY_ESCAPE) while (bytes[at++]! >= 0x80);
    count += alive[slot]!;
  }
  return count;
}
