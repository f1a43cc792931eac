import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCatalog } from './catalog.js';
import { ToolSearchError } from './errors.js';
import { createBm25Ranker } from './rankers/bm25/index.js';
import type { Ranker } from './rankers/ranker.js';
import { conformanceTools } from './testing/fixtures.js';
import type { ToolDefinition } from './types.js';

const tool = (name: string, description = '', extra: Partial<ToolDefinition> = {}) =>
  ({
    name,
    description,
    inputSchema: { type: 'object' },
    source: 'mcp',
    ...extra,
  }) as ToolDefinition;

describe('createCatalog', () => {
  const catalog = createCatalog(conformanceTools);

  it('knows its tools by name, in catalog order', () => {
    expect(catalog.size).toBe(conformanceTools.length);
    expect(catalog.names()).toEqual(conformanceTools.map((t) => t.name));
    expect(catalog.get('slack_post_message')?.name).toBe('slack_post_message');
    expect(catalog.has('nope')).toBe(false);
    expect(catalog.get('nope')).toBeUndefined();
  });

  it('ranks github_create_issue first for "create a github issue"', async () => {
    const [best] = await catalog.search('create a github issue');
    expect(best?.name).toBe('github_create_issue');
    expect(best?.source).toBe('mcp');
    expect(best?.toolset).toBe('mcp-github');
  });

  it('finds nothing for words that occur nowhere', async () => {
    expect(await catalog.search('asdf qwerty foobar')).toEqual([]);
  });

  it('respects the limit, defaulting to 5', async () => {
    expect((await catalog.search('file')).length).toBeLessThanOrEqual(5);
    expect(await catalog.search('file', { limit: 2 })).toHaveLength(2);
    expect((await catalog.search('file', { limit: 0 })).length).toBe(1);
  });

  it('cuts descriptions in hits to 400 characters and marks a missing source as other', async () => {
    const long = createCatalog([tool('longdesc', 'word '.repeat(200), { source: undefined })]);
    const [hit] = await long.search('word');
    expect(hit?.description.length).toBe(400);
    expect(hit?.source).toBe('other');
  });

  it('builds a catalog per list: the same tools in another order or subset are not confused', () => {
    const tools = [tool('a'), tool('b'), tool('c')];
    expect(createCatalog(tools).names()).toEqual(['a', 'b', 'c']);
    expect(createCatalog(tools).names()).toEqual(['a', 'b', 'c']);
    expect(createCatalog([...tools].reverse()).names()).toEqual(['c', 'b', 'a']);
    expect(createCatalog(tools.slice(1)).names()).toEqual(['b', 'c']);
    expect(createCatalog(tools.slice(1)).has('a')).toBe(false);
  });

  it('takes a frozen list as it is and finds its names again after other lists', () => {
    const tools = Object.freeze([tool('fa'), tool('fb')]);
    const first = createCatalog(tools);
    expect(first.tools()).toBe(tools);
    for (const other of ['x', 'y', 'z']) createCatalog([tool(other)]);
    const again = createCatalog(tools);
    expect(again.tools()).toBe(tools);
    expect(again.get('fb')).toBe(tools[1]);
    // An array that is not frozen is copied: changing it later changes no catalog.
    const open = [tool('oa')];
    const catalog = createCatalog(open);
    open.push(tool('ob'));
    expect(catalog.names()).toEqual(['oa']);
  });

  it('rejects two tools with the same name', () => {
    expect(() => createCatalog([tool('a'), tool('a')])).toThrow(/'a' appears more than once/);
  });

  it('turns a throwing ranker into a ranker_failed error and retries the build', async () => {
    let calls = 0;
    const flaky: Ranker = {
      specificationVersion: 'v1',
      id: 'flaky',
      index() {
        calls++;
        if (calls === 1) throw new Error('boom');
        return { search: () => [{ name: 'a', score: 1 }] };
      },
    };
    const flakyCatalog = createCatalog([tool('a')], { ranker: flaky });
    const error = await flakyCatalog.search('x').catch((e: unknown) => e);
    expect(ToolSearchError.isInstance(error)).toBe(true);
    expect((error as ToolSearchError).code).toBe('ranker_failed');
    expect((error as ToolSearchError).message).toContain("Ranker 'flaky' failed: boom");
    expect(await flakyCatalog.search('x')).toEqual([expect.objectContaining({ name: 'a' })]);
  });

  it('refuses a ranker that returns a tool outside the catalog', async () => {
    const liar: Ranker = {
      specificationVersion: 'v1',
      id: 'liar',
      index: () => ({ search: () => [{ name: 'ghost', score: 1 }] }),
    };
    await expect(createCatalog([tool('a')], { ranker: liar }).search('x')).rejects.toThrow(
      /'ghost', which is not in the catalog/,
    );
  });

  it('accepts async rankers and drops non-positive scores', async () => {
    const asyncRanker: Ranker = {
      specificationVersion: 'v1',
      id: 'async',
      index: async () => ({
        search: async () => [
          { name: 'b', score: 0 },
          { name: 'a', score: 2 },
        ],
      }),
    };
    const hits = await createCatalog([tool('a'), tool('b')], { ranker: asyncRanker }).search('x');
    expect(hits.map((hit) => hit.name)).toEqual(['a']);
  });

  for (const preset of ['spec', 'default'] as const) {
    it(`never throws for any query or limit and returns valid hits (${preset})`, async () => {
      const presetCatalog = createCatalog(conformanceTools, {
        ranker: createBm25Ranker({ preset }),
      });
      const names = new Set(presetCatalog.names());
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.string(),
            fc.string({ unit: 'grapheme' }),
            fc.constantFrom('file', 'slack message'),
          ),
          fc.oneof(fc.integer({ min: -5, max: 100 }), fc.double(), fc.constant(undefined)),
          async (query, limit) => {
            const hits = await presetCatalog.search(query, { limit });
            const max =
              typeof limit === 'number' && Number.isFinite(limit)
                ? Math.max(1, Math.floor(limit))
                : 5;
            expect(hits.length).toBeLessThanOrEqual(max);
            let previous = Number.POSITIVE_INFINITY;
            for (const hit of hits) {
              expect(names.has(hit.name)).toBe(true);
              expect(hit.score).toBeGreaterThan(0);
              expect(hit.score).toBeLessThanOrEqual(previous);
              previous = hit.score;
            }
          },
        ),
        { numRuns: 300 },
      );
    });
  }
});

describe('createCatalog over a list close to a recent one', () => {
  const many = (prefix: string, count: number) =>
    Array.from({ length: count }, (_, i) => tool(`${prefix}_${i}`, `tool number ${i}`));

  it('knows exactly the names of each list, old and new, in any order of use', () => {
    const first = many('near', 64);
    const second = [...first];
    second[3] = tool('near_new_3', 'replaced');
    second[40] = tool('near_new_40', 'replaced');
    const a = createCatalog(first);
    const b = createCatalog(second);
    expect(b.has('near_3')).toBe(false);
    expect(b.get('near_new_40')).toBe(second[40]);
    expect(a.get('near_3')).toBe(first[3]);
    expect(a.has('near_new_3')).toBe(false);
    expect(b.get('near_new_3')).toBe(second[3]);
    expect(a.names()).toEqual(first.map((t) => t.name));
  });

  it('rejects a replacement that takes a name another tool of the list still has', () => {
    const first = many('clash', 64);
    createCatalog(first);
    const second = [...first];
    second[5] = tool('clash_6');
    expect(() => createCatalog(second)).toThrow(/'clash_6' appears more than once/);
    expect(createCatalog(first).get('clash_5')).toBe(first[5]);
  });
});
