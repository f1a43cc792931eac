import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NameVersion } from './catalog-names.js';
import { ToolSearchError } from './errors.js';
import type { ToolDefinition } from './types.js';

const tool = (name: string): ToolDefinition => ({ name, inputSchema: { type: 'object' } });

describe('NameVersion', () => {
  it('answers every version as a map of its own list would, in any order of lookups', () => {
    const pool = Array.from({ length: 12 }, (_, i) => tool(`t${i % 8}`));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(20), fc.array(fc.nat(11), { maxLength: 4 })), { maxLength: 12 }),
        fc.array(fc.nat(40), { maxLength: 30 }),
        (steps, lookups) => {
          const lists: ToolDefinition[][] = [pool.slice(0, 5)];
          const versions = [NameVersion.of(lists[0]!)];
          for (const [from, picks] of steps) {
            const at = from % lists.length;
            const list = lists[at]!;
            // Replace a few tools by others of the pool (maybe a duplicate name).
            const removed = list.slice(0, picks.length);
            const added = picks.map((pick) => pool[pick]!);
            const next = [...list.slice(picks.length), ...added];
            const names = new Set(next.map((t) => t.name));
            if (names.size < next.length) {
              expect(() => versions[at]!.patch(removed, added, next)).toThrow(ToolSearchError);
              continue;
            }
            versions.push(versions[at]!.patch(removed, added, next));
            lists.push(next);
          }
          for (const lookup of lookups) {
            const at = lookup % versions.length;
            for (const candidate of pool) {
              const expected = lists[at]!.find((t) => t.name === candidate.name);
              expect(versions[at]!.get(candidate.name)).toBe(expected);
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('leaves the version it was patched from unchanged when the patch is refused', () => {
    const a = tool('a');
    const b = tool('b');
    const version = NameVersion.of([a, b]);
    expect(() => version.patch([], [tool('b')], [a, b, tool('b')])).toThrow(
      /'b' appears more than once/,
    );
    expect(version.get('a')).toBe(a);
    expect(version.get('b')).toBe(b);
  });
});
