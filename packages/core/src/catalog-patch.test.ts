import { describe, expect, it } from 'vitest';
import { createCatalog } from './catalog.js';
import { createCatalogCache } from './catalog-cache.js';
import { ToolSearchError } from './errors.js';
import { createToolList, patchToolList } from './tool-list.js';
import type { ToolDefinition } from './types.js';

const tool = (name: string): ToolDefinition => ({
  name,
  description: `Does ${name}.`,
  inputSchema: { type: 'object' },
  source: 'mcp',
});

/** A frozen list behind a proxy that counts the reads of its elements. */
function counted(tools: readonly ToolDefinition[]) {
  let reads = 0;
  const list = new Proxy(Object.freeze([...tools]), {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads += 1;
      return Reflect.get(target, key, receiver);
    },
  });
  return { list, reads: () => reads };
}

describe('createCatalog over a patched ToolList', () => {
  it('maps a list from the one it was patched from, reading only the changed positions', () => {
    const cache = createCatalogCache();
    const base = Array.from({ length: 500 }, (_, i) => tool(`t${i}`));
    const old = counted(base);
    const oldList = createToolList(old.list);
    createCatalog(oldList, { cache });
    const edited = [...base];
    edited[3] = tool('arrived_a');
    edited[400] = tool('t3');
    const next = counted(edited);
    const before = old.reads();
    const catalog = createCatalog(patchToolList(oldList, next.list, [3, 400]), { cache });
    expect(old.reads() - before + next.reads()).toBeLessThanOrEqual(4);
    expect(catalog.tools()).toBe(next.list);
    const fresh = createCatalog(edited, { cache: createCatalogCache() });
    for (const name of ['t0', 't3', 't400', 'arrived_a', 't499', 'nope']) {
      expect(catalog.get(name)).toBe(fresh.get(name));
      expect(catalog.has(name)).toBe(fresh.has(name));
    }
    // The old list's catalog still answers for its own list.
    expect(createCatalog(oldList, { cache }).get('t400')).toBe(base[400]);
    expect(createCatalog(oldList, { cache }).has('arrived_a')).toBe(false);
  });

  it('rejects an arriving tool whose name is taken, and leaves the old names as they were', () => {
    const cache = createCatalogCache();
    const base = Array.from({ length: 20 }, (_, i) => tool(`d${i}`));
    const old = createToolList(base);
    createCatalog(old, { cache });
    const edited = [...base];
    edited[2] = tool('d7');
    let error: unknown;
    try {
      createCatalog(patchToolList(old, edited, [2]), { cache });
    } catch (thrown) {
      error = thrown;
    }
    expect(ToolSearchError.isInstance(error) && error.code).toBe('duplicate_tool_name');
    expect(ToolSearchError.isInstance(error) && error.data?.['tool']).toBe('d7');
    expect(createCatalog(old, { cache }).get('d2')).toBe(base[2]);
  });

  it('maps a list whose origin the cache does not hold on its own', () => {
    const elsewhere = createToolList([tool('u1'), tool('u2')]);
    const next = patchToolList(elsewhere, [tool('u1'), tool('u3')], [1]);
    const catalog = createCatalog(next, { cache: createCatalogCache() });
    expect(catalog.names()).toEqual(['u1', 'u3']);
    expect(catalog.list()).toBe(next);
  });

  it('refuses a cache it did not make', () => {
    expect(() => createCatalog([], { cache: { defaultRanker: undefined as never } })).toThrow(
      /createCatalogCache/,
    );
  });
});
