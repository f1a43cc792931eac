import { createToolList, type ToolDefinition } from '@tool-search/core';
import { describe, expect, it } from 'vitest';
import { ToolsetCountsMemo } from './toolset-counts.js';
import { summarizeToolsets } from './toolset-listing.js';

function tool(name: string, toolset: string | undefined, source?: string): ToolDefinition {
  return {
    name,
    description: `Does ${name}.`,
    inputSchema: { type: 'object' },
    ...(toolset === undefined ? {} : { toolset }),
    ...(source === undefined ? {} : { source: source as ToolDefinition['source'] }),
  };
}

function fresh(tools: readonly ToolDefinition[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const t of tools) {
    const name = t.toolset ?? t.source ?? 'other';
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('ToolsetCountsMemo', () => {
  it('remembers the counts of a list instead of counting it again', () => {
    const memo = new ToolsetCountsMemo();
    const list = Object.freeze(Array.from({ length: 50 }, (_, i) => tool(`t${i}`, `set${i % 7}`)));
    const first = memo.countsOf(createToolList(list));
    expect(memo.countsOf(createToolList(list))).toBe(first);
    expect([...first.counts].sort()).toEqual(fresh(list));
  });

  it('patches the last list counts to exactly a fresh count over random edits', () => {
    const memo = new ToolsetCountsMemo();
    const random = seeded(17);
    let list: readonly ToolDefinition[] = Object.freeze(
      Array.from({ length: 400 }, (_, i) => tool(`t${i}`, `set${i % 9}`)),
    );
    let next = 0;
    for (let round = 0; round < 60; round += 1) {
      const edited = [...list];
      // A few replacements: into existing toolsets, new ones, no toolset (source or other).
      const edits = 1 + Math.floor(random() * 20);
      for (let e = 0; e < edits; e += 1) {
        const at = Math.floor(random() * edited.length);
        const kind = random();
        const set =
          kind < 0.6
            ? `set${Math.floor(random() * 9)}`
            : kind < 0.8
              ? `new${Math.floor(random() * 5)}`
              : undefined;
        edited[at] = tool(`n${next++}`, set, kind > 0.9 ? 'mcp' : undefined);
      }
      list = Object.freeze(edited);
      const counts = memo.countsOf(createToolList(list));
      expect([...counts.counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(
        fresh(list),
      );
      expect(counts.names).toEqual(fresh(list).map(([name]) => name));
    }
  });

  it('lists a frozen and an unfrozen copy of a list the same way', () => {
    const tools = Array.from({ length: 30 }, (_, i) =>
      tool(`t${i}`, i % 4 === 0 ? undefined : `s${i % 5}`),
    );
    const describe = (name: string) => (name === 's1' ? 'The first set.' : undefined);
    expect(summarizeToolsets(Object.freeze([...tools]), describe)).toEqual(
      summarizeToolsets(tools, describe),
    );
  });
});
