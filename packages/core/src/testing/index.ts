import { describe, expect, it } from 'vitest';
import type { RankedTool, Ranker, RankerIndex } from '../rankers/ranker.js';
import type { ToolDefinition } from '../types.js';
import { conformanceTools } from './fixtures.js';
import { checkPatchedIndexes } from './patches.js';

export { conformanceTools } from './fixtures.js';

/** Options of {@link testRanker}. */
export interface TestRankerOptions {
  /** The tools to index. @defaultValue {@link conformanceTools}, 30 realistic tools */
  tools?: readonly ToolDefinition[];
  /**
   * Queries with the tool that must rank within the top `k`, to check that the ranker
   * finds anything at all. Set to `[]` for a ranker that is not lexical.
   * @defaultValue a few plain queries over {@link conformanceTools}
   */
  expectations?: readonly { query: string; tool: string; within: number }[];
  /**
   * Whether the ranker is lexical: it must then find nothing for words that occur in
   * no tool. Set to `false` for a semantic ranker, which always finds a nearest tool.
   * @defaultValue true
   */
  lexical?: boolean;
  /** The suite's name. @defaultValue `testRanker(<ranker id>)` */
  name?: string;
  /**
   * How many random change sequences check a v2 ranker's patched indexes against fresh
   * ones (each a few steps of tools added, removed, changed and moved).
   * @defaultValue 12
   */
  patchRuns?: number;
  /** The seed of those sequences. @defaultValue 1 */
  seed?: number;
}

const GARBAGE_QUERIES = [
  '',
  '   ',
  '\u0000\u0001\u0002',
  'asdf qwerty foobar',
  '💥🔥 ✨',
  '"; DROP TABLE tools; --',
  '((((((((',
  '*',
  'a'.repeat(5_000),
  'x'.repeat(20_000),
  '数据库 查询',
  'créer un ticket',
  '__proto__ constructor prototype toString',
];

const DEFAULT_EXPECTATIONS = [
  { query: 'create a github issue', tool: 'github_create_issue', within: 3 },
  { query: 'send a message to a slack channel', tool: 'slack_post_message', within: 3 },
  { query: 'read the contents of a file', tool: 'read_file', within: 3 },
];

async function run(
  index: RankerIndex,
  query: string,
  limit: number,
): Promise<readonly RankedTool[]> {
  return await index.search(query, limit);
}

/**
 * Registers a vitest suite that checks a {@link Ranker} against its contract:
 * results at most `limit`, scores descending and greater than 0, names from the
 * indexed list and unique, empty and garbage queries answered without throwing,
 * the same answer twice, an empty tool list, and (for lexical rankers) a few plain
 * queries that must find the obvious tool. For a v2 ranker, random lists and random
 * changes (tools added, removed, changed in place, moved): each index patched from the
 * previous one (with the change, when tools were replaced in place) must answer exactly
 * as a fresh index over copies of the same tools, and the previous index as before.
 * Works for async rankers.
 *
 * Call it at the top level of a test file.
 *
 * @example
 * ```ts
 * import { testRanker } from '@tool-search/core/testing';
 * import { myRanker } from './my-ranker.js';
 *
 * testRanker(myRanker);
 * ```
 *
 * @param ranker - the ranker under test
 * @param options.tools - the tools to index
 * @param options.expectations - queries that must find a tool within the top `within`
 * @param options.lexical - whether nonsense words must find nothing @defaultValue true
 * @param options.name - the suite's name
 * @param options.patchRuns - how many random change sequences check a v2 ranker @defaultValue 12
 * @param options.seed - their seed @defaultValue 1
 * @returns nothing; registers `describe`/`it` blocks
 * @throws nothing itself; failed checks fail the registered tests
 */
export function testRanker(ranker: Ranker, options: TestRankerOptions = {}): void {
  const tools = options.tools ?? conformanceTools;
  const expectations = options.expectations ?? (options.tools ? [] : DEFAULT_EXPECTATIONS);
  const names = new Set(tools.map((tool) => tool.name));

  const checkResult = (result: readonly RankedTool[], limit: number): void => {
    expect(Array.isArray(result)).toBe(true);
    expect(result.length).toBeLessThanOrEqual(limit);
    const seen = new Set<string>();
    let previous = Number.POSITIVE_INFINITY;
    for (const hit of result) {
      expect(typeof hit.name).toBe('string');
      expect(names.has(hit.name)).toBe(true);
      expect(seen.has(hit.name)).toBe(false);
      seen.add(hit.name);
      expect(Number.isFinite(hit.score)).toBe(true);
      expect(hit.score).toBeGreaterThan(0);
      expect(hit.score).toBeLessThanOrEqual(previous);
      previous = hit.score;
    }
  };

  describe(options.name ?? `testRanker(${ranker.id})`, () => {
    it('declares specification v1 or v2 and an id', () => {
      expect(['v1', 'v2']).toContain(ranker.specificationVersion);
      expect(typeof ranker.id).toBe('string');
      expect(ranker.id.length).toBeGreaterThan(0);
    });

    it('returns at most limit hits, best first, scores > 0, names from the catalog', async () => {
      const index = await ranker.index(tools);
      for (const limit of [1, 2, 5, 10, 50]) {
        for (const query of ['search', 'create issue', 'file', 'list all items in the project']) {
          checkResult(await run(index, query, limit), limit);
        }
      }
    });

    it('answers empty and garbage queries without throwing', async () => {
      const index = await ranker.index(tools);
      for (const query of GARBAGE_QUERIES) checkResult(await run(index, query, 5), 5);
      if (options.lexical !== false) {
        const none = await run(index, 'zzqxj vvkpw qqyyz', 5);
        expect(none.length).toBe(0);
      }
    });

    it('gives the same answer to the same query', async () => {
      const index = await ranker.index(tools);
      const again = await ranker.index(tools);
      for (const query of ['create issue', 'read file', 'search the web']) {
        const first = await run(index, query, 10);
        expect(await run(index, query, 10)).toEqual(first);
        expect(await run(again, query, 10)).toEqual(first);
      }
    });

    it('indexes an empty list and a single tool', async () => {
      const empty = await ranker.index([]);
      expect(await run(empty, 'anything', 5)).toEqual([]);
      const first = tools[0];
      if (first === undefined) return;
      const single = await ranker.index([first]);
      checkResult(await run(single, first.name, 5), 5);
    });

    it('does not return tools from another index', async () => {
      const half = tools.slice(0, Math.ceil(tools.length / 2));
      const halfNames = new Set(half.map((tool) => tool.name));
      const index = await ranker.index(half);
      for (const query of ['create issue', 'file', 'message', 'search']) {
        for (const hit of await run(index, query, 20)) expect(halfNames.has(hit.name)).toBe(true);
      }
    });

    if (ranker.specificationVersion === 'v2') {
      it('patches an index to answer exactly as a fresh one, after adds, removals, changes and moves', async () => {
        await checkPatchedIndexes(ranker, tools, {
          runs: options.patchRuns ?? 12,
          seed: options.seed ?? 1,
          check: (patched, fresh, context) => expect(patched, context).toEqual(fresh),
        });
      });
    }

    for (const expectation of expectations) {
      it(`finds ${expectation.tool} for "${expectation.query}" within the top ${expectation.within}`, async () => {
        const index = await ranker.index(tools);
        const result = await run(index, expectation.query, expectation.within);
        expect(result.map((hit) => hit.name)).toContain(expectation.tool);
      });
    }
  });
}
