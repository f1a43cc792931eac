import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAnalyzer } from '../../analyzer.js';
import type { ToolDefinition } from '../../types.js';
import { indexTools } from './index/index-tools.js';
import { createTermDictionary } from './index/term-dictionary.js';
import { ToolAnalysis } from './index/tool-analysis.js';
import { SearchScratch } from './query/search-scratch.js';
import { createSearcher } from './query/searcher.js';
import { resolveBm25Tuning } from './tuning.js';

// The group boost settled from the best tools before it (the leaders) must answer as
// the full passes over every touched tool: with few leaders, most searches take the
// settled path, and ties, few groups and lifted groups beyond the leaders take the
// fallbacks.

// Few words: many tools tie, the cases where the leaders' boundary matters.
const VERBS = ['read', 'write', 'list'];
const NOUNS = ['files', 'issues', 'messages'];

const catalog = fc
  .array(
    fc.record({
      verb: fc.nat(VERBS.length - 1),
      noun: fc.nat(NOUNS.length - 1),
      extra: fc.nat(NOUNS.length - 1),
      group: fc.nat(12),
      grouped: fc.boolean(),
    }),
    { minLength: 1, maxLength: 240 },
  )
  .map((rows) =>
    rows.map(
      (row, i): ToolDefinition => ({
        name: `${VERBS[row.verb]}_${NOUNS[row.noun]}_${i}`,
        description: `${VERBS[row.verb]} ${NOUNS[row.noun]} and ${NOUNS[row.extra]}`,
        inputSchema: { type: 'object', properties: {} },
        ...(row.grouped ? { toolset: `set_${row.group}` } : {}),
      }),
    ),
  );

const query = fc
  .array(fc.oneof(fc.constantFrom(...VERBS), fc.constantFrom(...NOUNS)), {
    minLength: 1,
    maxLength: 4,
  })
  .map((words) => words.join(' '));

describe('the group boost settled from the leaders', () => {
  it('answers exactly as the full passes, whatever the leaders, catalog and limit', () => {
    const tuning = resolveBm25Tuning({});
    const analyzer = createAnalyzer(tuning.analyzer);
    const ways = { settled: 0, unsettled: 0, rechecked: 0 };
    fc.assert(
      fc.property(
        catalog,
        fc.array(query, { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 1, max: 10 }),
        (tools, queries, limit, leaders) => {
          const analysis = new ToolAnalysis(analyzer, createTermDictionary());
          const index = indexTools({
            previous: undefined,
            tools,
            tuning,
            terms: analysis.dictionary.terms,
            analyse: (arrivals) => analysis.analyse(arrivals),
          });
          const shared = { analyzer, tuning, posCache: new Map() };
          const settled = createSearcher(index, {
            ...shared,
            scratch: new SearchScratch(),
            leaders,
            onGroupBoost: (way) => ways[way]++,
          });
          const full = createSearcher(index, {
            ...shared,
            scratch: new SearchScratch(),
            leaders: 0,
          });
          for (const text of queries) {
            expect(settled.search(text, limit), text).toEqual(full.search(text, limit));
          }
        },
      ),
      // A fixed seed: the counts below say this run reaches every way.
      { numRuns: 400, seed: 17 },
    );
    // Every way was taken, so each was compared with the full passes.
    expect(ways.settled).toBeGreaterThan(50);
    expect(ways.unsettled).toBeGreaterThan(50);
    expect(ways.rechecked).toBeGreaterThan(0);
  });
});
