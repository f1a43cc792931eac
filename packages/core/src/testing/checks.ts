import { expect } from 'vitest';
import type { RankedTool, RankerIndex } from '../rankers/ranker.js';

/** What a check of {@link checkHits} and {@link checkFinds} ran: named in every failure. */
export interface SearchCase {
  query: string;
  limit: number;
}

/** The name of a search case in a failure message: `query "…", limit 5`. */
export function describeCase({ query, limit }: SearchCase): string {
  const shown = query.length > 60 ? `${query.slice(0, 57)}…` : query;
  return `query ${JSON.stringify(shown)}, limit ${limit}`;
}

/** Runs one search of a ranker's index (sync or async). */
export async function searchIndex(
  index: RankerIndex,
  { query, limit }: SearchCase,
): Promise<readonly RankedTool[]> {
  return await index.search(query, limit);
}

/**
 * Checks one answer against the contract: an array of at most `limit` hits, names from
 * the indexed list and unique, finite scores greater than 0, best first. Each failure
 * names the query, the limit and the rule broken.
 *
 * @throws an assertion error naming the case and the rule
 */
export function checkHits(
  result: readonly RankedTool[],
  searchCase: SearchCase,
  names: ReadonlySet<string>,
): void {
  const at = describeCase(searchCase);
  expect(Array.isArray(result), `${at}: the answer must be an array`).toBe(true);
  expect(
    result.length,
    `${at}: at most limit hits (rule: never more than limit; got ${result.length})`,
  ).toBeLessThanOrEqual(searchCase.limit);
  const seen = new Set<string>();
  let previous = Number.POSITIVE_INFINITY;
  for (const [position, hit] of result.entries()) {
    const where = `${at}, hit ${position + 1} (${String(hit.name)})`;
    expect(typeof hit.name, `${where}: name must be a string`).toBe('string');
    expect(names.has(hit.name), `${where}: name must be one of the indexed tools`).toBe(true);
    expect(seen.has(hit.name), `${where}: names must be unique`).toBe(false);
    seen.add(hit.name);
    expect(Number.isFinite(hit.score), `${where}: score must be a finite number`).toBe(true);
    expect(hit.score, `${where}: score must be greater than 0`).toBeGreaterThan(0);
    expect(hit.score, `${where}: scores must not increase (best first)`).toBeLessThanOrEqual(
      previous,
    );
    previous = hit.score;
  }
}

/**
 * Checks that a ranker honours `limit`: for each limit below the number of hits it gives
 * at a large limit, the answer holds exactly `limit` hits, the first ones of that larger
 * answer's length. A ranker that ignores `limit` (or cuts at a fixed length) fails here
 * whenever it finds more than one tool.
 *
 * @throws an assertion error naming the query, the limit and the rule
 */
export async function checkLimit(
  index: RankerIndex,
  query: string,
  limits: readonly number[],
): Promise<void> {
  const wide = await searchIndex(index, { query, limit: 50 });
  for (const limit of limits) {
    const result = await searchIndex(index, { query, limit });
    const expected = Math.min(limit, wide.length);
    expect(
      result.length,
      `${describeCase({ query, limit })}: must return exactly min(limit, hits at limit 50) = ${expected} hits (rule: honour limit), got ${result.length}`,
    ).toBe(expected);
  }
}

/**
 * Checks that `tool` is within the top `within` hits of `query`, and that the answer
 * holds no more than `within` hits (so a ranker that ignores the limit cannot pass by
 * returning everything).
 *
 * @throws an assertion error naming the query, the limit, the tool and the hits
 */
export async function checkFinds(
  index: RankerIndex,
  expectation: { query: string; tool: string; within: number },
  names: ReadonlySet<string>,
): Promise<void> {
  const searchCase = { query: expectation.query, limit: expectation.within };
  const result = await searchIndex(index, searchCase);
  checkHits(result, searchCase, names);
  const found = result.map((hit) => hit.name);
  expect(
    found,
    `${describeCase(searchCase)}: must find ${expectation.tool} within the top ${expectation.within} (rule: expectation); got [${found.join(', ')}]`,
  ).toContain(expectation.tool);
}
