import { describe, expect, it } from 'vitest';
import { createCatalog, patchCatalogList } from './catalog.js';
import { ToolSearchError } from './errors.js';
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

describe('patchCatalogList', () => {
  it('maps a list from a known one, reading only the changed positions', () => {
    const base = Array.from({ length: 500 }, (_, i) => tool(`t${i}`));
    const old = counted(base);
    createCatalog(old.list);
    const edited = [...base];
    edited[3] = tool('arrived_a');
    edited[400] = tool('t3');
    const next = counted(edited);
    const before = old.reads();
    expect(patchCatalogList(old.list, next.list, [3, 400])).toBe(true);
    const catalog = createCatalog(next.list);
    expect(old.reads() - before + next.reads()).toBeLessThanOrEqual(4);
    expect(catalog.tools()).toBe(next.list);
    const fresh = createCatalog(edited);
    for (const name of ['t0', 't3', 't400', 'arrived_a', 't499', 'nope']) {
      expect(catalog.get(name)).toBe(fresh.get(name));
      expect(catalog.has(name)).toBe(fresh.has(name));
    }
    // The old list's catalog still answers for its own list.
    expect(createCatalog(old.list).get('t400')).toBe(base[400]);
    expect(createCatalog(old.list).has('arrived_a')).toBe(false);
  });

  it('rejects an arriving tool whose name is taken, and leaves the old names as they were', () => {
    const base = Array.from({ length: 20 }, (_, i) => tool(`d${i}`));
    const old = Object.freeze([...base]);
    createCatalog(old);
    const edited = [...base];
    edited[2] = tool('d7');
    let error: unknown;
    try {
      patchCatalogList(old, Object.freeze(edited), [2]);
    } catch (thrown) {
      error = thrown;
    }
    expect(ToolSearchError.isInstance(error) && error.code).toBe('duplicate_tool_name');
    expect(ToolSearchError.isInstance(error) && error.data?.['tool']).toBe('d7');
    expect(createCatalog(old).get('d2')).toBe(base[2]);
  });

  it('does nothing for a list it cannot patch from', () => {
    const unknown = Object.freeze([tool('u1'), tool('u2')]);
    const next = Object.freeze([tool('u1'), tool('u3')]);
    expect(patchCatalogList(unknown, next, [1])).toBe(false);
    expect(patchCatalogList(Object.freeze([tool('v')]), Object.freeze([]), [])).toBe(false);
    const open = [tool('w1')];
    expect(patchCatalogList(open, Object.freeze([tool('w2')]), [0])).toBe(false);
    expect(createCatalog(next).names()).toEqual(['u1', 'u3']);
  });
});
