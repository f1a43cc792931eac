import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { duplicateItems } from './unique-items.js';

// JSON Schema equality, pair by pair, as ajv's own uniqueItems judges it.
function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, index) => equal(item, b[index]));
  }
  const left = Object.keys(a);
  const right = Object.keys(b);
  return (
    left.length === right.length &&
    left.every(
      (key) =>
        Object.hasOwn(b, key) &&
        equal((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
    )
  );
}

// The same value with every object's keys in reverse order.
function reordered(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(reordered);
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, item]) => [key, reordered(item)]),
  );
}

describe('duplicateItems', () => {
  // A small alphabet, so that equal items (also with their keys in another order) are common.
  const value = fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      fc.constantFrom(0, 1, 1.5, -0, '1', 'a', true, false, null),
      fc.array(tie('node'), { maxLength: 3 }),
      fc.dictionary(fc.constantFrom('a', 'b', 'c'), tie('node'), { maxKeys: 3 }),
    ),
  }));

  it('finds two equal items exactly when a pairwise comparison does, and names an equal pair', () => {
    fc.assert(
      fc.property(
        fc.array(value.node, { maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 3 }),
        (base, copies) => {
          // Copies of some items with their keys in another order: equal, differently written.
          const items = [
            ...base,
            ...(base.length === 0
              ? []
              : copies.map((index) => reordered(base[index % base.length]))),
          ];
          const pairwise = items.some((item, index) =>
            items.slice(index + 1).some((other) => equal(item, other)),
          );
          const found = duplicateItems(items);
          expect(found !== undefined).toBe(pairwise);
          if (found) {
            const [later, earlier] = found;
            expect(earlier).toBeLessThan(later);
            expect(equal(items[earlier], items[later])).toBe(true);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
