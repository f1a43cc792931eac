import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createToolList, patchToolList, type ToolDefinition } from '@tool-search/core';
import { describe, expect, it } from 'vitest';
import { forcedOn, paddedTool } from './__fixtures__/tools.js';
import { assembleTools } from './assemble.js';
import { ToolsetCountsMemo } from './toolset-counts.js';
import { summarizeToolsets, ToolsetListings, toolsetListing } from './toolset-listing.js';

// 30 toolsets of 4 tools each: more than the 20 the description lists.
const sessionOf = (from: number) =>
  Array.from({ length: 120 }, (_, i) =>
    paddedTool(from + i, 200, `set-${String(i % 30).padStart(2, '0')}`),
  );

const searchDescription = (
  tools: readonly ToolDefinition[],
  describeToolset?: (name: string) => string | undefined,
) =>
  assembleTools({
    tools,
    config: forcedOn,
    ...(describeToolset ? { describeToolset } : {}),
  }).tools.at(-3)!.description!;

/** A frozen list behind a proxy that counts the reads of its elements. */
function counted(tools: readonly ToolDefinition[]): {
  list: readonly ToolDefinition[];
  reads: () => number;
} {
  let reads = 0;
  const list = new Proxy(Object.freeze([...tools]), {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads += 1;
      return Reflect.get(target, key, receiver);
    },
  });
  return { list, reads: () => reads };
}

describe('the toolset listing of an assembly', () => {
  it('asks describeToolset only for the toolsets it lists, and nothing again for the same list', () => {
    const tools = sessionOf(0);
    const asked: string[] = [];
    const describeToolset = (name: string) => {
      asked.push(name);
      return `The ${name} server.`;
    };
    const first = searchDescription(tools, describeToolset);
    expect(new Set(asked).size).toBe(20);
    expect(first).toContain('- set-00 (4 tools): The set-00 server.');
    expect(first).toContain('- and 10 more toolsets');
    asked.length = 0;
    expect(searchDescription([...tools], describeToolset)).toBe(first);
    expect(asked).toEqual([]);
  });

  it('changes when a listed toolset gains or loses a tool, though the listing is remembered', () => {
    const tools = sessionOf(200);
    const describeToolset = (name: string) => `The ${name} server.`;
    const before = searchDescription(tools, describeToolset);
    expect(before).toContain('- set-01 (4 tools)');
    const moved = [...tools];
    // A tool of set-01 replaced in place by one of set-02 (a server's list changed).
    moved[1] = paddedTool(999, 200, 'set-02');
    const after = searchDescription(moved, describeToolset);
    expect(after).toContain('- set-01 (3 tools)');
    expect(after).toContain('- set-02 (5 tools)');
    // And back: the first list again answers as it did.
    expect(searchDescription(tools, describeToolset)).toBe(before);
  });

  it('changes when describeToolset changes over the same list', () => {
    const tools = sessionOf(400);
    const plain = searchDescription(tools);
    expect(plain).toContain('- set-03 (4 tools)\n');
    const described = searchDescription(tools, (name) => `Tools of ${name}.`);
    expect(described).toContain('- set-03 (4 tools): Tools of set-03.');
    const redescribed = searchDescription(tools, (name) =>
      name === 'set-03' ? 'Renamed.' : undefined,
    );
    expect(redescribed).toContain('- set-03 (4 tools): Renamed.');
    expect(redescribed).toContain('- set-04 (4 tools)\n');
  });

  it('is the listing of the full summary, over random edits of a frozen list', () => {
    let state = 7;
    const random = () => {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      return state / 2 ** 32;
    };
    const listings = new ToolsetListings();
    let tools: readonly ToolDefinition[] = Object.freeze(sessionOf(600));
    const describe = (name: string) => (name.endsWith('7') ? undefined : `About ${name}.`);
    for (let round = 0; round < 30; round += 1) {
      const edited = [...tools];
      for (let e = 0; e < 1 + Math.floor(random() * 6); e += 1) {
        const set = `set-${String(Math.floor(random() * 40)).padStart(2, '0')}`;
        edited[Math.floor(random() * edited.length)] = paddedTool(1000 + round * 10 + e, 50, set);
      }
      tools = Object.freeze(edited);
      expect(listings.listingOf(createToolList(tools), describe)).toBe(
        toolsetListing(summarizeToolsets(tools, describe)),
      );
    }
  });
});

describe('ToolsetCountsMemo over a list the assembly patched', () => {
  it('reads only the changed positions of both lists', () => {
    const memo = new ToolsetCountsMemo();
    const base = sessionOf(800);
    const old = counted(base);
    const oldList = createToolList(old.list);
    memo.countsOf(oldList);
    const edited = [...base];
    edited[5] = paddedTool(1900, 200, 'set-29');
    edited[77] = paddedTool(1901, 200, 'new-set');
    const next = counted(edited);
    const nextList = patchToolList(oldList, next.list, [5, 77]);
    const before = old.reads();
    const counts = memo.countsOf(nextList);
    expect(next.reads() + old.reads() - before).toBeLessThanOrEqual(4);
    expect(counts.counts.get('set-05')).toBe(3);
    expect(counts.counts.get('set-29')).toBe(5);
    expect(counts.counts.get('new-set')).toBe(1);
    expect(counts.names).toEqual([...new Set(edited.map((tool) => tool.toolset!))].sort());
  });

  it('keeps no list before the last alive through its counts', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const memo = new ToolsetCountsMemo();
    let list = createToolList(sessionOf(3000));
    memo.countsOf(list);
    const first = new WeakRef(list.tools);
    for (let round = 0; round < 5; round += 1) {
      const edited = [...list.tools];
      edited[round] = paddedTool(3500 + round, 50, 'set-00');
      const next = patchToolList(list, edited, [round]);
      memo.countsOf(next);
      list = next;
    }
    // A WeakRef keeps its target until the end of the job that made or read it.
    await new Promise((resolve) => setTimeout(resolve, 0));
    gc();
    expect(first.deref()).toBeUndefined();
    expect(memo.countsOf(list).counts.get('set-00')).toBe(8);
  });
});
