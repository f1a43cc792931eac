import { describe, expect, it } from 'vitest';
import type { RankedTool, Ranker, RankerIndex } from '../rankers/ranker.js';
import type { ToolDefinition } from '../types.js';
import { checkFinds, checkHits, checkLimit, searchIndex } from './checks.js';
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

/** Broad queries: most lexical rankers find several tools for each, so `limit` bites. */
const BROAD_QUERIES = ['search', 'create issue', 'file', 'list all items in the project'];
const LIMITS = [1, 2, 5, 10, 50];

/**
 * Registers a vitest suite that checks a {@link Ranker} against its contract:
 * results at most `limit` (and exactly `limit` when it finds more), scores descending and greater than 0, names from the
 * indexed list and unique, empty and garbage queries answered without throwing,
 * the same answer twice, an empty tool list, and (for lexical rankers) a few plain
 * queries that must find the obvious tool. For a v2 ranker, random lists and random
 * changes (tools added, removed, changed in place, moved): each index patched from the
 * previous one (with the change, when tools were replaced in place) must answer exactly
 * as a fresh index over copies of the same tools, and the previous index as before.
 * Works for async rankers. Every failure names the query, the limit and the rule
 * broken, e.g. `query "file", limit 1: must return exactly min(limit, hits at limit 50)
 * = 1 hits (rule: honour limit), got 4`.
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

  const check = (result: readonly RankedTool[], query: string, limit: number) =>
    checkHits(result, { query, limit }, names);
  const run = (index: RankerIndex, query: string, limit: number) =>
    searchIndex(index, { query, limit });

  describe(options.name ?? `testRanker(${ranker.id})`, () => {
    it('declares specification v1 or v2 and an id', () => {
      expect(['v1', 'v2']).toContain(ranker.specificationVersion);
      expect(typeof ranker.id).toBe('string');
      expect(ranker.id.length).toBeGreaterThan(0);
    });

    it('returns at most limit hits, best first, scores > 0, names from the catalog', async () => {
      const index = await ranker.index(tools);
      for (const limit of LIMITS) {
        for (const query of BROAD_QUERIES) check(await run(index, query, limit), query, limit);
      }
    });

    it('honours limit: exactly min(limit, what it finds)', async () => {
      const index = await ranker.index(tools);
      for (const query of BROAD_QUERIES) await checkLimit(index, query, LIMITS);
    });

    it('answers empty and garbage queries without throwing', async () => {
      const index = await ranker.index(tools);
      for (const query of GARBAGE_QUERIES) check(await run(index, query, 5), query, 5);
      if (options.lexical !== false) {
        const none = await run(index, 'zzqxj vvkpw qqyyz', 5);
        expect(
          none.map((hit) => hit.name),
          'query "zzqxj vvkpw qqyyz", limit 5: a lexical ranker finds nothing for words in no tool (rule: lexical; pass { lexical: false } for a semantic ranker)',
        ).toEqual([]);
      }
    });

    it('gives the same answer to the same query', async () => {
      const index = await ranker.index(tools);
      const again = await ranker.index(tools);
      for (const query of ['create issue', 'read file', 'search the web']) {
        const first = await run(index, query, 10);
        const rule = `query ${JSON.stringify(query)}, limit 10: the same answer`;
        expect(await run(index, query, 10), `${rule} twice from one index`).toEqual(first);
        expect(await run(again, query, 10), `${rule} from a second index`).toEqual(first);
      }
    });

    it('indexes an empty list and a single tool', async () => {
      const empty = await ranker.index([]);
      expect(
        await run(empty, 'anything', 5),
        'query "anything", limit 5: an empty index finds nothing',
      ).toEqual([]);
      const first = tools[0];
      if (first === undefined) return;
      const single = await ranker.index([first]);
      check(await run(single, first.name, 5), first.name, 5);
    });

    it('does not return tools from another index', async () => {
      const half = tools.slice(0, Math.ceil(tools.length / 2));
      const halfNames = new Set(half.map((tool) => tool.name));
      const index = await ranker.index(half);
      for (const query of ['create issue', 'file', 'message', 'search']) {
        for (const hit of await run(index, query, 20)) {
          expect(
            halfNames.has(hit.name),
            `query ${JSON.stringify(query)}, limit 20: ${hit.name} is not in this index (rule: no tools from another index)`,
          ).toBe(true);
        }
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
        await checkFinds(await ranker.index(tools), expectation, names);
      });
    }
  });
}
