import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  SlabReader,
  type SlabRef,
  SlabWriter,
  VectorMemo,
  type VectorSlab,
} from './vector-slab.js';

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
    expect(copied.serial).not.toBe(a.serial);
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

describe('VectorMemo', () => {
  it('finds each remembered key in the newest slab that holds it', () => {
    const memo = new VectorMemo<object>();
    const [k0, k1, k2] = [{}, {}, {}];
    const first = slabOf([[1], [2]]);
    memo.remember([k0, k1], first);
    expect(memo.find(k1, 0)).toBe(1);
    expect(memo.found).toBe(first);
    const second = slabOf([[2], [3], [1]]);
    memo.remember([k1, k2, k0], second);
    expect(memo.find(k0, 0)).toBe(2);
    expect(memo.found).toBe(second);
    expect(memo.find({}, 0)).toBe(-1);
  });

  it('finds nothing in a slab of another dictionary generation', () => {
    const memo = new VectorMemo<object>();
    const key = {};
    memo.remember([key], slabOf([[1]], 3));
    expect(memo.find(key, 4)).toBe(-1);
    expect(memo.find(key, 3)).toBe(0);
  });

  it('finds nothing once a slab is gone, and forgets it', () => {
    const refs: { slab: VectorSlab | undefined }[] = [];
    const memo = new VectorMemo<object>((slab): SlabRef => {
      const ref = { slab: slab as VectorSlab | undefined, deref: () => ref.slab };
      refs.push(ref);
      return ref;
    });
    const [a, b] = [{}, {}];
    memo.remember([a], slabOf([[1]]));
    memo.remember([b], slabOf([[2]]));
    expect(memo.slabCount).toBe(2);
    refs[0]!.slab = undefined;
    expect(memo.find(a, 0)).toBe(-1);
    expect(memo.slabCount).toBe(1);
    expect(memo.find(b, 0)).toBe(0);
  });

  it('holds slabs weakly: a slab no index holds is collected', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const memo = new VectorMemo<object>();
    const [key, keptKey] = [{}, {}];
    const kept = slabOf([[7]]);
    memo.remember([keptKey], kept);
    (() => memo.remember([key], slabOf([[1]])))();
    // A WeakRef keeps its target until the end of the job that made or read it.
    await new Promise((resolve) => setTimeout(resolve, 0));
    gc();
    expect(memo.find(key, 0)).toBe(-1);
    expect(memo.find(keptKey, 0)).toBe(0);
    expect(memo.found).toBe(kept);
  });
});
