import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SlabReader, SlabWriter, type VectorSlab } from './vector-slab.js';

/** Reads back the varints of one vector. */
function varints(slab: VectorSlab, doc: number): number[] {
  const values: number[] = [];
  let at = slab.starts[doc]!;
  const end = slab.starts[doc + 1]!;
  while (at < end) {
    let value = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = slab.bytes[at++]!;
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte >= 0x80);
    values.push(value);
  }
  return values;
}

function slabOf(vectors: readonly (readonly number[])[], generation = 0): VectorSlab {
  const writer = new SlabWriter(vectors.length, 1);
  for (const vector of vectors) {
    writer.ensure(vector.length * 5);
    for (const value of vector) writer.varint(value);
    writer.end();
  }
  return writer.finish(generation);
}

describe('SlabWriter', () => {
  it('writes varints of every size, growing its bytes, and trims the slab', () => {
    const values = [0, 1, 127, 128, 16_383, 16_384, 2 ** 21, 2 ** 28 - 1, 2 ** 32 - 1];
    const slab = slabOf([values, [], [5]]);
    expect(varints(slab, 0)).toEqual(values);
    expect(varints(slab, 1)).toEqual([]);
    expect(varints(slab, 2)).toEqual([5]);
    expect(slab.bytes.length).toBe(slab.starts[3]);
  });

  it('writes 4-byte integers little-endian', () => {
    const writer = new SlabWriter(1, 4);
    writer.ensure(4);
    writer.uint32(0xdeadbeef);
    writer.end();
    expect([...writer.finish(0).bytes]).toEqual([0xef, 0xbe, 0xad, 0xde]);
  });

  it('copies runs of vectors from other slabs', () => {
    const a = slabOf([[1], [2, 300], [3]]);
    const b = slabOf([[40_000], [5]]);
    const writer = new SlabWriter(4, 1);
    writer.copy(b, 1, 2);
    writer.copy(a, 0, 3);
    const copied = writer.finish(0);
    expect([0, 1, 2, 3].map((doc) => varints(copied, doc))).toEqual([[5], [1], [2, 300], [3]]);
    expect(copied.bytes).not.toBe(a.bytes);
  });

  it('refuses more or fewer vectors than its count', () => {
    const writer = new SlabWriter(1, 8);
    writer.end();
    expect(() => writer.end()).toThrow(RangeError);
    expect(() => writer.copy(slabOf([[1]]), 0, 1)).toThrow(RangeError);
    expect(() => new SlabWriter(2, 8).finish(0)).toThrow(RangeError);
  });
});

describe('SlabReader', () => {
  it('reads back every varint and 4-byte integer a SlabWriter wrote, in order', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.record({
              kind: fc.constant('varint' as const),
              value: fc.nat({ max: 2 ** 32 - 1 }),
            }),
            fc.record({
              kind: fc.constant('uint32' as const),
              value: fc.nat({ max: 2 ** 32 - 1 }),
            }),
          ),
          { maxLength: 50 },
        ),
        (items) => {
          const writer = new SlabWriter(1, 1);
          writer.ensure(items.length * 5);
          for (const item of items) writer[item.kind](item.value);
          writer.end();
          const slab = writer.finish(0);
          const reader = new SlabReader(slab.bytes);
          const read = items.map((item) => reader[item.kind]());
          expect(read).toEqual(items.map((item) => item.value));
          expect(reader.position).toBe(slab.bytes.length);
        },
      ),
    );
  });

  it('reads from the position it is set to, at the boundaries of each varint size', () => {
    const values = [0, 127, 128, 16_383, 16_384, 2 ** 21 - 1, 2 ** 21, 2 ** 28, 2 ** 32 - 1];
    const slab = slabOf([[7, 8], values]);
    const reader = new SlabReader(slab.bytes);
    reader.position = slab.starts[1]!;
    expect(values.map(() => reader.varint())).toEqual(values);
    reader.position = slab.starts[0]!;
    expect([reader.varint(), reader.varint()]).toEqual([7, 8]);
    expect(reader.position).toBe(slab.starts[1]);
  });
});
