// `pnpm eval --learning`: learning from use, measured. Each dev set's queries are split
// by a hash of their id into past traffic and a test half; the past traffic is replayed
// through the bridge's real recording path (a session searches the query, then calls its
// labelled tool; only a tool the search returned is learned), and the test half is
// scored with and without what was learned. Then one token records 1,000 pairs pointing
// random queries at one wrong tool, and the test half is scored again; another profile's
// rankings are hashed before and after all of it.

import { createHash } from 'node:crypto';
import { assembleTools, createAssemblyCache, handleBridgeCall } from '@tool-search/bridge';
import {
  createCatalog,
  createCatalogCache,
  createLearningSession,
  createSearchLearner,
  type SearchLearner,
} from '@tool-search/core';
import type { EvalQuery, EvalSet } from './data.js';
import { EVAL_DEPTH } from './evaluate.js';
import { meanScores, type QueryScores, scoreQuery } from './metrics.js';

/** The results of one set. */
export interface LearningResult {
  set: string;
  past: number;
  test: number;
  /** Past sessions whose call was recorded (the search returned the labelled tool). */
  recorded: number;
  /** The share of test queries with a relevant tool that learned terms. */
  trafficShare: number;
  without: QueryScores;
  with: QueryScores;
  poisoned: QueryScores;
  /** Whether another profile's rankings stayed byte-identical. */
  otherProfileIdentical: boolean;
}

/** How many hits a replayed search asks for. */
const SEARCH_LIMIT = 10;
/** The pairs the poisoning token records. */
const POISON_PAIRS = 1000;

/** Past traffic or test, by the first byte of a SHA-256 of the query's id. */
export function isPast(query: EvalQuery): boolean {
  return createHash('sha256').update(query.id).digest()[0]! % 2 === 0;
}

const ok = async () => ({ content: [{ type: 'text', text: 'done' }], isError: false });

/** One past session: search the query, call its labelled tools. */
async function replay(
  set: EvalSet,
  learner: SearchLearner,
  query: EvalQuery,
  token: string,
  cache: ReturnType<typeof createAssemblyCache>,
): Promise<void> {
  const learning = createLearningSession({ learner, profile: 'eval', token });
  const assembly = assembleTools({ tools: set.tools, config: { enabled: 'on' }, learning, cache });
  await handleBridgeCall(
    assembly,
    { name: 'tool_search', arguments: { query: query.query, limit: SEARCH_LIMIT } },
    ok,
  );
  // A task with several labelled tools calls each.
  for (const tool of query.relevant) {
    await handleBridgeCall(
      assembly,
      { name: 'tool_call', arguments: { name: tool, arguments: {} } },
      ok,
    );
  }
  await learning.flush();
}

async function score(
  set: EvalSet,
  queries: readonly EvalQuery[],
  learner: SearchLearner | undefined,
  profile: string,
): Promise<{ scores: QueryScores; hash: string }> {
  const catalog = createCatalog(set.tools, {
    cache: createCatalogCache(),
    ...(learner === undefined ? {} : { learner, profile }),
  });
  const hash = createHash('sha256');
  const per: QueryScores[] = [];
  for (const query of queries) {
    const hits = await catalog.search(query.query, { limit: EVAL_DEPTH });
    hash.update(`${JSON.stringify([query.id, hits.map((hit) => [hit.name, hit.score])])}\n`);
    per.push(
      scoreQuery(
        hits.map((hit) => hit.name),
        query.relevant,
      ),
    );
  }
  return { scores: meanScores(per), hash: hash.digest('hex') };
}

/** A deterministic generator in [0, 1). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Replays one set's past traffic and scores its test half. */
export async function evaluateLearning(set: EvalSet): Promise<LearningResult> {
  const past = set.queries.filter(isPast);
  const test = set.queries.filter((query) => !isPast(query));
  const learner = createSearchLearner();
  const other = await score(set, test, learner, 'other');
  const cache = createAssemblyCache();
  for (let i = 0; i < past.length; i++) {
    // Each past session is its own client: many users, as a deployment's traffic is.
    await replay(set, learner, past[i]!, `client-${i}`, cache);
  }
  const recorded = learner.stats.recorded;
  const learned = await learner.learnedTerms('eval');
  const withTraffic = test.filter((query) => [...query.relevant].some((name) => learned.has(name)));
  const without = await score(set, test, undefined, 'eval');
  const withLearning = await score(set, test, learner, 'eval');
  // One token points random queries at one wrong tool (straight to the learner: the
  // worst case, past the bridge's rule that the search must have returned the tool).
  const next = random(set.tools.length);
  const wrong = set.tools[Math.floor(next() * set.tools.length)]!.name;
  for (let i = 0; i < POISON_PAIRS; i++) {
    const query = set.queries[Math.floor(next() * set.queries.length)]!;
    await learner.record({ query: query.query, tool: wrong, profile: 'eval', token: 'attacker' });
  }
  const poisoned = await score(set, test, learner, 'eval');
  const otherAfter = await score(set, test, learner, 'other');
  return {
    set: set.name,
    past: past.length,
    test: test.length,
    recorded,
    trafficShare: withTraffic.length / Math.max(1, test.length),
    without: without.scores,
    with: withLearning.scores,
    poisoned: poisoned.scores,
    otherProfileIdentical: otherAfter.hash === other.hash,
  };
}

const pct = (value: number): string => (100 * value).toFixed(1);

/** The table of `--learning`. */
export function formatLearningTable(results: readonly LearningResult[]): string {
  const lines = [
    'set           past  test  recorded  traffic  NDCG@10 without  with   ratio  R@5 without  with   poisoned NDCG@10  drop  other profile',
  ];
  const ratios: number[] = [];
  for (const r of results) {
    const ratio = r.with.ndcg10 / Math.max(1e-9, r.without.ndcg10);
    if (r.trafficShare >= 0.5) ratios.push(ratio);
    lines.push(
      [
        r.set.padEnd(12),
        String(r.past).padStart(5),
        String(r.test).padStart(5),
        String(r.recorded).padStart(9),
        `${pct(r.trafficShare)}%`.padStart(8),
        pct(r.without.ndcg10).padStart(16),
        pct(r.with.ndcg10).padStart(5),
        `${ratio.toFixed(2)}×`.padStart(7),
        pct(r.without.recall5).padStart(12),
        pct(r.with.recall5).padStart(5),
        pct(r.poisoned.ndcg10).padStart(18),
        (100 * (r.with.ndcg10 - r.poisoned.ndcg10)).toFixed(2).padStart(5),
        (r.otherProfileIdentical ? 'identical' : 'CHANGED').padStart(14),
      ].join(' '),
    );
  }
  const mean = ratios.reduce((sum, value) => sum + value, 0) / Math.max(1, ratios.length);
  lines.push(
    `sets with traffic on at least half the test queries: ${ratios.length}; mean NDCG@10 ratio ${mean.toFixed(2)}×`,
  );
  return `${lines.join('\n')}\n`;
}
