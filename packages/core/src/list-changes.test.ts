import { describe, expect, it } from 'vitest';
import { changedPositions, recordListChange } from './list-changes.js';
import type { ToolDefinition } from './types.js';

const tool = (name: string): ToolDefinition => ({
  name,
  description: `Tool ${name}`,
  inputSchema: { type: 'object', properties: {} },
});

/** A frozen copy of `from` with the tools at `at` replaced, recorded as such. */
const patched = (from: readonly ToolDefinition[], at: number[]) => {
  const list = Object.freeze(from.map((t, i) => (at.includes(i) ? tool(`${t.name}_x`) : t)));
  recordListChange(list, from, at);
  return list;
};

describe('changedPositions', () => {
  const base = Object.freeze(Array.from({ length: 10 }, (_, i) => tool(`t${i}`)));

  it('gives the recorded change between a list and the list it came from, either way round', () => {
    const next = patched(base, [2, 7]);
    expect(changedPositions(base, next)).toEqual([2, 7]);
    expect(changedPositions(next, base)).toEqual([2, 7]);
    expect(changedPositions(next, next)).toEqual([]);
  });

  it('joins two lists patched from a shared list, each through its own chain', () => {
    const a = patched(patched(base, [1]), [5]);
    const b = patched(base, [5, 8]);
    expect(changedPositions(a, b)).toEqual([1, 5, 8]);
    expect(changedPositions(b, a)).toEqual([1, 5, 8]);
  });

  it('knows nothing of lists with no recorded link, or of other lengths', () => {
    const other = Object.freeze(base.map((t) => t));
    expect(changedPositions(base, other)).toBeUndefined();
    expect(changedPositions(base, patched(other, [0]))).toBeUndefined();
    expect(changedPositions(base, base.slice(1))).toBeUndefined();
  });
});
