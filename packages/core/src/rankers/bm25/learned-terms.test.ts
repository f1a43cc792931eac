import { describe, expect, it } from 'vitest';
import { createAnalyzer } from '../../analyzer.js';
import { createCatalog } from '../../catalog.js';
import { createCatalogCache } from '../../catalog-cache.js';
import { createMemoryLearningStore } from '../../learning/memory-store.js';
import { createSearchLearner } from '../../learning/search-learner.js';
import { conformanceTools } from '../../testing/fixtures.js';
import { testRanker } from '../../testing/index.js';
import type { ToolDefinition } from '../../types.js';
import type { RankerIndexOptions, RankerV2 } from '../ranker.js';
import { createBm25Ranker } from './index.js';
import { DEFAULT_BM25_TUNING } from './tuning.js';

const analyzer = createAnalyzer(DEFAULT_BM25_TUNING.analyzer);

function learned(tool: ToolDefinition, query: string, count = 1): ToolDefinition {
  const terms: Record<string, number> = { ...tool.learnedTerms };
  for (const term of analyzer.analyze(query)) terms[term] = (terms[term] ?? 0) + count;
  return { ...tool, learnedTerms: terms };
}

// Each tool learns the words of another tool's description: patches then move learned terms.
const toolsWithLearned = conformanceTools.map((tool, i) =>
  i % 2 === 0
    ? learned(tool, conformanceTools[(i + 7) % conformanceTools.length]!.description ?? '')
    : tool,
);

testRanker(createBm25Ranker(), {
  tools: toolsWithLearned,
  name: 'testRanker(bm25:default) over tools with learned terms',
  patchRuns: 8,
});

async function search(tools: readonly ToolDefinition[], query: string, limit = 30) {
  const index = await createBm25Ranker().index(tools);
  return await index.search(query, limit);
}

describe('learned terms in the default BM25 ranker', () => {
  const tools = [...conformanceTools];
  const target = 5;
  const query = 'is it going to rain in Lisbon tomorrow';

  it('changes nothing for tools without learned terms', async () => {
    const copies = tools.map((tool) => ({ ...tool }));
    expect(await search(copies, 'create an issue')).toEqual(await search(tools, 'create an issue'));
  });

  it('lifts a tool whose learned terms the query holds', async () => {
    const lifted = tools.map((tool, i) => (i === target ? learned(tool, query, 5) : tool));
    const before = await search(tools, query);
    const after = await search(lifted, query);
    const name = tools[target]!.name;
    const rankOf = (hits: readonly { name: string }[]) =>
      hits.findIndex((hit) => hit.name === name);
    expect(rankOf(after)).toBe(0);
    expect(rankOf(before) === -1 || rankOf(before) > 0).toBe(true);
  });

  it('bounds the lift: at most learnedWeight times the idf of the query terms (and the group lift’s share of it)', async () => {
    const lifted = tools.map((tool, i) => (i === target ? learned(tool, query, 1e9) : tool));
    const before = new Map((await search(tools, query)).map((hit) => [hit.name, hit.score]));
    const after = await search(lifted, query);
    const n = tools.length;
    const idf = Math.log(1 + (n - 1 + 0.5) / 1.5);
    const terms = new Set(analyzer.analyze(query));
    const bound =
      DEFAULT_BM25_TUNING.learnedWeight * idf * terms.size * (1 + DEFAULT_BM25_TUNING.groupBoost);
    const hit = after.find((entry) => entry.name === tools[target]!.name)!;
    expect(hit.score - (before.get(hit.name) ?? 0)).toBeLessThanOrEqual(bound + 1e-9);
  });

  it('never hides a tool that matches on its own text: every score stays, none is lowered', async () => {
    const lifted = tools.map((tool, i) =>
      i % 3 === 0 ? learned(tool, 'create issue repository', 3) : tool,
    );
    const before = await search(tools, 'create issue', 100);
    const after = new Map(
      (await search(lifted, 'create issue', 100)).map((hit) => [hit.name, hit.score]),
    );
    for (const hit of before) expect(after.get(hit.name)).toBeGreaterThanOrEqual(hit.score);
  });

  it('ignores learned terms that are not finite positive counts', async () => {
    const odd = tools.map((tool, i) =>
      i === target ? { ...tool, learnedTerms: { rain: Number.NaN, lisbon: -3, '': 4 } } : tool,
    );
    expect(await search(odd, query)).toEqual(await search(tools, query));
  });
});

describe('createCatalog with a learner', () => {
  it('patches the index for the tools whose learned terms changed, and ranks with them', async () => {
    const inner = createBm25Ranker() as RankerV2;
    const changes: (readonly number[] | undefined)[] = [];
    const ranker: RankerV2 = {
      specificationVersion: 'v2',
      id: 'spy',
      index(list, options: RankerIndexOptions = {}) {
        changes.push(options.change?.changed);
        return inner.index(list, options);
      },
    };
    const learner = createSearchLearner();
    const cache = createCatalogCache();
    const tools = Object.freeze(conformanceTools.map((tool) => ({ ...tool })));
    const catalog = createCatalog(tools, { ranker, learner, cache });
    await catalog.search('anything');
    const name = tools[3]!.name;
    await learner.record({ query: 'frobnicate the quux', tool: name });
    const [best] = await catalog.search('frobnicate quux');
    expect(best?.name).toBe(name);
    expect(changes.at(-1)).toEqual([3]);
  });

  it('keeps profiles apart: one profile’s traffic never changes another’s results', async () => {
    const learner = createSearchLearner();
    const tools = Object.freeze(conformanceTools.map((tool) => ({ ...tool })));
    const other = createCatalog(tools, { learner, profile: 'b', cache: createCatalogCache() });
    const before = await other.search('send a message to the team', { limit: 20 });
    for (const tool of tools.slice(0, 10)) {
      await learner.record({ query: 'send a message to the team', tool: tool.name, profile: 'a' });
    }
    expect(await other.search('send a message to the team', { limit: 20 })).toEqual(before);
    const mine = createCatalog(tools, { learner, profile: 'a', cache: createCatalogCache() });
    expect(await mine.search('send a message to the team', { limit: 20 })).not.toEqual(before);
  });

  it('refuses a learner that createSearchLearner did not make', () => {
    expect(() => createCatalog([], { learner: {} as never })).toThrow(/createSearchLearner/);
  });
});

describe('createCatalog with a learner whose store fails', () => {
  it('answers as without learned terms', async () => {
    const store = createMemoryLearningStore();
    store.learnedTerms = () => {
      throw new Error('store down');
    };
    const learner = createSearchLearner({ store });
    const tools = Object.freeze(conformanceTools.map((tool) => ({ ...tool })));
    const plain = await createCatalog(tools, { cache: createCatalogCache() }).search(
      'create an issue',
    );
    const failing = createCatalog(tools, { learner, cache: createCatalogCache() });
    expect(await failing.search('create an issue')).toEqual(plain);
    store.learnedTerms = () => Promise.reject(new Error('store down'));
    expect(await failing.search('create an issue')).toEqual(plain);
  });
});

describe('an index patched for new learned terms', () => {
  it('answers exactly as a fresh build over the same tools, and the previous one as before', async () => {
    const ranker = createBm25Ranker() as RankerV2;
    const first = Object.freeze([...toolsWithLearned]);
    const queries = [
      'create issue',
      'send a message',
      'frobnicate quux',
      'read the file',
      'weather',
    ];
    const previous = await ranker.index(first);
    const before = await Promise.all(queries.map((query) => previous.search(query, 10)));
    let list: readonly ToolDefinition[] = first;
    let index = previous;
    for (const [step, position] of [3, 4, 11, 3].entries()) {
      const next = [...list];
      next[position] = learned(next[position]!, `frobnicate quux step${step}`, step + 1);
      const frozen = Object.freeze(next);
      index = await ranker.index(frozen, {
        previous: index,
        change: { from: step, changed: [position] },
      });
      const fresh = await createBm25Ranker().index(frozen.map((tool) => ({ ...tool })));
      for (const query of queries) {
        expect(await index.search(query, 10)).toEqual(await fresh.search(query, 10));
      }
      list = frozen;
    }
    expect(await Promise.all(queries.map((query) => previous.search(query, 10)))).toEqual(before);
  });
});
