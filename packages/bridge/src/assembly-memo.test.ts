import type { ToolDefinition } from '@tool-search/core';
import { createCatalog, ToolSearchError } from '@tool-search/core';
import { describe, expect, it } from 'vitest';
import { coreTools, forcedOn, paddedTool } from './__fixtures__/tools.js';
import { assembleTools } from './assemble.js';

const names = (tools: readonly ToolDefinition[]) => tools.map((tool) => tool.name);
const bulk = (from: number, count: number) =>
  Array.from({ length: count }, (_, index) => paddedTool(from + index));

describe('assembleTools over a list it assembled before', () => {
  it('hands the catalog the same list again, however many other catalogs came in between', () => {
    const tools = [coreTools[0]!, ...bulk(0, 40)];
    const first = assembleTools({ tools, config: forcedOn });
    // Other lists in between, as other sessions or a changed list would bring.
    createCatalog(bulk(100, 5));
    createCatalog(bulk(200, 5));
    createCatalog(bulk(300, 5));
    const again = assembleTools({ tools: [...tools], config: forcedOn });
    expect(again.catalog.tools()).toBe(first.catalog.tools());
    expect(names(again.deferred)).toEqual(names(first.deferred));
    expect(again.stats).toEqual(first.stats);
  });

  it('gives each assembly its own deferred array, which the caller may change', () => {
    const tools = bulk(400, 30);
    const first = assembleTools({ tools, config: forcedOn });
    first.deferred.length = 0;
    const again = assembleTools({ tools, config: forcedOn });
    expect(again.deferred).toHaveLength(30);
    expect(again.catalog.size).toBe(30);
  });

  it('sees a tool replaced in place in the same array', () => {
    const tools = bulk(500, 20);
    assembleTools({ tools, config: forcedOn });
    tools[3] = { ...tools[3]!, name: 'renamed_tool', source: 'core' };
    const again = assembleTools({ tools, config: forcedOn });
    expect(names(again.tools)).toContain('renamed_tool');
    expect(again.catalog.has('renamed_tool')).toBe(false);
    expect(again.deferred).toHaveLength(19);
  });

  it('classifies again when the pins change, whatever their order', () => {
    const tools = bulk(600, 20);
    const pinned = [tools[0]!.name, tools[1]!.name];
    const none = assembleTools({ tools, config: forcedOn });
    const two = assembleTools({ tools, config: forcedOn, pinned });
    const reversed = assembleTools({ tools, config: forcedOn, pinned: [...pinned].reverse() });
    expect(none.deferred).toHaveLength(20);
    expect(two.deferred).toHaveLength(18);
    expect(names(two.tools).slice(0, 2)).toEqual(pinned);
    expect(reversed.stats).toEqual(two.stats);
  });

  it('estimates again with another token counter', () => {
    const tools = bulk(700, 20);
    const chars = assembleTools({ tools, config: forcedOn });
    const twice = assembleTools({
      tools,
      config: forcedOn,
      counter: { count: (text) => 2 * Math.ceil(text.length / 4) },
    });
    expect(twice.stats.deferredTokens).toBe(2 * chars.stats.deferredTokens);
  });

  it('rejects a list with a duplicate name every time, not only the first', () => {
    const tools = [...bulk(800, 10), paddedTool(800)];
    for (let round = 0; round < 2; round += 1) {
      let error: unknown;
      try {
        assembleTools({ tools, config: forcedOn });
      } catch (thrown) {
        error = thrown;
      }
      expect(ToolSearchError.isInstance(error) && error.code).toBe('duplicate_tool_name');
    }
  });

  it('assembles a list with a few tools replaced exactly as a list never seen before', async () => {
    const first = bulk(900, 64);
    assembleTools({ tools: first, config: forcedOn });
    const second = [...first];
    second[7] = { ...paddedTool(990, 900), description: 'Send an invoice to a customer.' };
    second[50] = paddedTool(991, 120);
    const patched = assembleTools({ tools: second, config: forcedOn });
    const fresh = assembleTools({ tools: structuredClone(second), config: forcedOn });
    expect(patched.stats).toEqual(fresh.stats);
    expect(names(patched.deferred)).toEqual(names(fresh.deferred));
    expect(patched.catalog.names()).toEqual(fresh.catalog.names());
    expect(patched.catalog.has('bulk_tool_907')).toBe(false);
    expect(patched.catalog.get('bulk_tool_990')).toBe(second[7]);
    expect(await patched.catalog.search('invoice customer')).toEqual(
      await fresh.catalog.search('invoice customer'),
    );
  });

  it('rejects a replacement that takes the name of a tool still in the list', () => {
    const first = bulk(1000, 64);
    assembleTools({ tools: first, config: forcedOn });
    const second = [...first];
    second[2] = paddedTool(1003);
    expect(() => assembleTools({ tools: second, config: forcedOn })).toThrow(
      /'bulk_tool_1003' appears more than once. Give each tool a unique name: resolveToolNames/,
    );
  });

  it('keeps a replacement that must stay visible out of the catalog', () => {
    const first = bulk(1100, 64);
    assembleTools({ tools: first, config: forcedOn });
    const second = [...first];
    second[9] = { ...coreTools[0]!, name: 'replacement_core_tool' };
    const assembly = assembleTools({ tools: second, config: forcedOn });
    expect(names(assembly.tools)[0]).toBe('replacement_core_tool');
    expect(assembly.deferred).toHaveLength(63);
    expect(assembly.catalog.has('replacement_core_tool')).toBe(false);
  });
});

describe('assembleTools with the previous assembly of a large, slowly changing list', () => {
  /** The assembly with its deferred array behind a proxy that counts the reads of its elements. */
  const watched = (assembly: ReturnType<typeof assembleTools>) => {
    let reads = 0;
    const deferred = new Proxy(assembly.deferred, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads += 1;
        return Reflect.get(target, key, receiver);
      },
    });
    return { previous: { ...assembly, deferred }, reads: () => reads };
  };

  it('knows the names of the tools replaced since, looking up none of the others', () => {
    const tools = bulk(1200, 64);
    const first = assembleTools({ tools, config: forcedOn });
    const second = [...tools];
    second[4] = paddedTool(1300);
    second[40] = { ...tools[40]! };
    const { previous, reads } = watched(first);
    const assembly = assembleTools({ tools: second, config: forcedOn, previous });
    expect([...assembly.knownNames]).toEqual(['bulk_tool_1204']);
    expect(reads()).toBe(0);
    // And over the same list again: nothing is gone, nothing is looked up.
    const again = watched(assembly);
    const same = assembleTools({ tools: [...second], config: forcedOn, previous: again.previous });
    expect([...same.knownNames]).toEqual(['bulk_tool_1204']);
    expect(again.reads()).toBe(0);
  });

  it('looks every previous tool up when the list was not patched from the previous one', () => {
    const tools = bulk(1400, 64);
    const first = assembleTools({ tools, config: forcedOn });
    const shorter = tools.slice(0, 60);
    const { previous, reads } = watched(first);
    const assembly = assembleTools({ tools: shorter, config: forcedOn, previous });
    expect([...assembly.knownNames].sort()).toEqual(
      ['bulk_tool_1460', 'bulk_tool_1461', 'bulk_tool_1462', 'bulk_tool_1463'].sort(),
    );
    expect(reads()).toBe(64);
  });
});
