import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCatalog } from '../catalog.js';
import { ToolSearchError } from '../errors.js';
import { conformanceTools, testRanker } from '../testing/index.js';
import type { ToolDefinition } from '../types.js';
import { createBm25Ranker } from './bm25/index.js';
import { createHybridRanker } from './hybrid-ranker.js';
import type { RankedTool, Ranker } from './ranker.js';

testRanker(
  createHybridRanker({ rankers: [createBm25Ranker(), createBm25Ranker({ preset: 'spec' })] }),
);
testRanker(
  createHybridRanker({
    rankers: [createBm25Ranker(), createBm25Ranker({ preset: 'spec' })],
    fusion: { weights: [1, 0.5] },
  }),
);

/** A ranker that answers every query with a fixed list. */
const fixed = (id: string, hits: RankedTool[]): Ranker => ({
  specificationVersion: 'v1',
  id,
  index: async () => ({ search: async (_query, limit) => hits.slice(0, limit) }),
});

const tools: ToolDefinition[] = ['a', 'b', 'c', 'd'].map((name) => ({
  name,
  inputSchema: { type: 'object' },
}));

describe('createHybridRanker', () => {
  const first = fixed('first', [
    { name: 'a', score: 10 },
    { name: 'b', score: 5 },
    { name: 'c', score: 1 },
  ]);
  const second = fixed('second', [
    { name: 'c', score: 0.9 },
    { name: 'b', score: 0.6 },
  ]);

  it('fuses by reciprocal rank: Σ 1 / (60 + rank)', async () => {
    const index = await createHybridRanker({ rankers: [first, second] }).index(tools);
    const hits = await index.search('q', 10);
    // c: 1/63 + 1/61 edges out b: 1/62 + 1/62.
    expect(hits.map((hit) => hit.name)).toEqual(['c', 'b', 'a']);
    expect(hits[0]!.score).toBeCloseTo(1 / 63 + 1 / 61, 12);
    expect(hits[1]!.score).toBeCloseTo(1 / 62 + 1 / 62, 12);
    expect(hits[2]!.score).toBeCloseTo(1 / 61, 12);
  });

  it('fuses weighted scores normalised by each list’s best', async () => {
    const ranker = createHybridRanker({ rankers: [first, second], fusion: { weights: [1, 2] } });
    const hits = await (await ranker.index(tools)).search('q', 2);
    // a: 1; b: 0.5 + 2 × 0.6 / 0.9; c: 0.1 + 2.
    expect(hits).toEqual([
      { name: 'c', score: expect.closeTo(2.1, 12) },
      { name: 'b', score: expect.closeTo(0.5 + 4 / 3, 12) },
    ]);
  });

  it('keeps catalog order between equal fused scores and ignores names outside the catalog', async () => {
    const left = fixed('left', [
      { name: 'd', score: 1 },
      { name: 'zzz', score: 1 },
    ]);
    const right = fixed('right', [{ name: 'a', score: 1 }]);
    const hits = await (await createHybridRanker({ rankers: [left, right] }).index(tools)).search(
      'q',
      5,
    );
    expect(hits.map((hit) => hit.name)).toEqual(['a', 'd']);
  });

  it('names itself after its rankers', () => {
    expect(createHybridRanker({ rankers: [first, second] }).id).toBe('hybrid(first,second)');
  });

  it('rejects fewer than two rankers, mismatched or negative weights, and a bad depth', () => {
    expect(() => createHybridRanker({ rankers: [first] })).toThrow(ToolSearchError);
    expect(() =>
      createHybridRanker({ rankers: [first, second], fusion: { weights: [1] } }),
    ).toThrow(/weights/);
    expect(() =>
      createHybridRanker({ rankers: [first, second], fusion: { weights: [1, -1] } }),
    ).toThrow(ToolSearchError);
    expect(() => createHybridRanker({ rankers: [first, second], depth: 0 })).toThrow(/depth/);
  });
});

describe('createCatalog over a hybrid ranker', () => {
  it('never throws for any query or limit and returns at most limit hits, best first, from the catalog', async () => {
    const catalog = createCatalog(conformanceTools, {
      ranker: createHybridRanker({
        rankers: [createBm25Ranker(), createBm25Ranker({ preset: 'spec' })],
        fusion: { weights: [1, 0.5] },
      }),
    });
    const names = new Set(catalog.names());
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.constantFrom('file', 'issue')),
        fc.integer({ min: -3, max: 60 }),
        async (query, limit) => {
          const hits = await catalog.search(query, { limit });
          expect(hits.length).toBeLessThanOrEqual(Math.max(1, limit));
          let previous = Number.POSITIVE_INFINITY;
          for (const hit of hits) {
            expect(names.has(hit.name)).toBe(true);
            expect(hit.score).toBeGreaterThan(0);
            expect(hit.score).toBeLessThanOrEqual(previous);
            previous = hit.score;
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
