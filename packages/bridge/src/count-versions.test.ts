import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CountVersion } from './count-versions.js';

const countOf = (names: readonly string[]) => {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return counts;
};

const sorted = (entries: Iterable<[string, number]>) =>
  [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

describe('CountVersion', () => {
  it('answers every version as a fresh count of its own list would, in any order of reads', () => {
    const pool = ['a', 'b', 'c', 'd', 'e', 'f'];
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(fc.nat(30), fc.array(fc.tuple(fc.nat(40), fc.nat(5)), { maxLength: 5 })),
          { maxLength: 15 },
        ),
        fc.array(fc.tuple(fc.nat(40), fc.nat(6)), { maxLength: 40 }),
        (steps, reads) => {
          const lists: string[][] = [['a', 'a', 'b', 'c', 'c', 'c']];
          const versions = [CountVersion.of(() => countOf(lists[0]!))];
          for (const [from, edits] of steps) {
            const at = from % lists.length;
            const list = [...lists[at]!];
            const removed: string[] = [];
            const added: string[] = [];
            // Each edit replaces one tool's toolset in place, as a list edited in place does
            // (each position once: the change of a position is one tool out, one in).
            const touched = new Set<number>();
            for (const [position, pick] of edits) {
              const index = position % list.length;
              if (touched.has(index)) continue;
              touched.add(index);
              removed.push(list[index]!);
              added.push(pool[pick]!);
              list[index] = pool[pick]!;
            }
            const before = new Set(lists[at]);
            const patch = versions[at]!.patch(removed, added, () => countOf(list));
            const now = new Set(list);
            expect([...patch.appeared].sort()).toEqual(
              [...now].filter((n) => !before.has(n)).sort(),
            );
            expect([...patch.vanished].sort()).toEqual(
              [...before].filter((n) => !now.has(n)).sort(),
            );
            lists.push(list);
            versions.push(patch.version);
          }
          for (const [which, pick] of reads) {
            const at = which % versions.length;
            const version = versions[at]!;
            const fresh = countOf(lists[at]!);
            const name = pick < pool.length ? pool[pick]! : 'none';
            expect(version.get(name)).toBe(fresh.get(name));
            expect(version.has(name)).toBe(fresh.has(name));
            expect(version.size).toBe(fresh.size);
          }
          for (const [at, version] of versions.entries()) {
            expect(sorted(version)).toEqual(sorted(countOf(lists[at]!)));
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('reads as a ReadonlyMap: keys, values, entries and forEach of its own version', () => {
    const first = CountVersion.of(() => countOf(['x', 'y', 'y']));
    const { version: second } = first.patch(['x'], ['z'], () => countOf(['z', 'y', 'y']));
    expect([...first.keys()].sort()).toEqual(['x', 'y']);
    expect([...second.values()].sort()).toEqual([1, 2]);
    const seen: [string, number][] = [];
    second.forEach((count, name) => {
      seen.push([name, count]);
    });
    expect(sorted(seen)).toEqual([
      ['y', 2],
      ['z', 1],
    ]);
    expect(sorted(first.entries())).toEqual([
      ['x', 1],
      ['y', 2],
    ]);
  });
});
