import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countAlivePostings, PostingCursor } from './posting-cursor.js';
import { appendPosting, newPostingBuffer, renumberPostings } from './posting-encoder.js';
import { FIELD_COUNT, FREQUENCY_BITS, MAX_FREQUENCY } from './posting-format.js';

/** Packed field frequencies: one field and a small frequency mostly, any fields at times. */
const packedFrequencies = fc.oneof(
  fc
    .record({ field: fc.nat(FIELD_COUNT - 1), frequency: fc.integer({ min: 1, max: 40 }) })
    .map(({ field, frequency }) => frequency << (field * FREQUENCY_BITS)),
  fc
    .array(fc.nat(MAX_FREQUENCY), { minLength: FIELD_COUNT, maxLength: FIELD_COUNT })
    .map((fields) => fields.reduce((packed, f, i) => packed + f * 2 ** (i * FREQUENCY_BITS), 0))
    .filter((packed) => packed > 0),
);

/** Postings in ascending slot order, gaps up to `maxGap`. */
const postingsWithGaps = (maxGap: number) =>
  fc
    .array(
      fc.record({
        gap: fc.oneof(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1, max: maxGap })),
        frequencies: packedFrequencies,
      }),
      { maxLength: 60 },
    )
    .map((entries) => {
      let slot = -1;
      return entries.map(({ gap, frequencies }) => {
        slot += gap;
        return { slot, frequencies };
      });
    });
/** Slots of every varint size. */
const postingList = postingsWithGaps(2 ** 24);
/** Slots small enough for per-slot arrays (still of three-byte varints). */
const smallPostingList = postingsWithGaps(2 ** 15);

function encode(postings: readonly { slot: number; frequencies: number }[]) {
  const buffer = newPostingBuffer(1);
  let last = -1;
  for (const { slot, frequencies } of postings) {
    appendPosting(buffer, slot - last, frequencies);
    last = slot;
  }
  return buffer;
}

function decode(bytes: Uint8Array, end: number) {
  const cursor = new PostingCursor().open(bytes, end);
  const read: { slot: number; frequencies: number }[] = [];
  while (cursor.next()) read.push({ slot: cursor.slot, frequencies: cursor.frequencies });
  return read;
}

describe('the posting format', () => {
  it('reads back every posting appended, slot and packed frequencies alike', () => {
    fc.assert(
      fc.property(postingList, (postings) => {
        const buffer = encode(postings);
        expect(decode(buffer.bytes, buffer.used)).toEqual(postings);
      }),
    );
  });

  it('reads only the prefix an index owns, whatever was appended after it', () => {
    fc.assert(
      fc.property(postingList, fc.nat(), (postings, cut) => {
        const kept = postings.slice(0, postings.length === 0 ? 0 : cut % (postings.length + 1));
        const prefix = encode(kept).used;
        expect(decode(encode(postings).bytes, prefix)).toEqual(kept);
      }),
    );
  });

  it('counts the postings of alive slots', () => {
    fc.assert(
      fc.property(smallPostingList, fc.integer(), (postings, seed) => {
        const size = (postings.at(-1)?.slot ?? 0) + 1;
        const alive = Uint8Array.from(
          { length: size },
          (_, slot) => ((slot * 7 + seed) & 1) as 0 | 1,
        );
        const buffer = encode(postings);
        const expected = postings.filter(({ slot }) => alive[slot] === 1).length;
        expect(countAlivePostings(buffer.bytes, buffer.used, alive)).toBe(expected);
      }),
    );
  });

  it('renumbers the postings of kept slots in order and drops the others', () => {
    fc.assert(
      fc.property(smallPostingList, (postings) => {
        const size = (postings.at(-1)?.slot ?? 0) + 1;
        const renumbered = new Int32Array(size).fill(-1);
        let next = 0;
        for (const [i, { slot }] of postings.entries()) if (i % 3 !== 1) renumbered[slot] = next++;
        const buffer = encode(postings);
        const kept = renumberPostings(buffer.bytes, buffer.used, renumbered);
        const expected = postings
          .filter(({ slot }) => renumbered[slot]! >= 0)
          .map(({ slot, frequencies }) => ({ slot: renumbered[slot]!, frequencies }));
        expect(decode(kept.buffer.bytes, kept.buffer.used)).toEqual(expected);
        expect(kept.count).toBe(expected.length);
        expect(kept.last).toBe(expected.at(-1)?.slot ?? -1);
        expect(kept.buffer.bytes.length).toBe(kept.buffer.used);
      }),
    );
  });
});
