/**
 * `pnpm bench --learning`: what learning from use costs, as ratios. At 10,000 tools with
 * learned terms on half of them: the query p50 with the learned field against without it
 * (target ≤ 1.1×), and an assembly (with its first search) after one new recorded pair
 * against a cold one (target ≤ 1/100): the new pair patches the index for one tool.
 */
import { assembleTools, createAssemblyCache, handleBridgeCall } from '@tool-search/bridge';
import {
  type Analyzer,
  createAnalyzer,
  createCatalog,
  createCatalogCache,
  createLearningSession,
  createSearchLearner,
  DEFAULT_BM25_TUNING,
  type LearnedTerms,
  type SearchLearner,
  type ToolDefinition,
} from '@tool-search/core';
import { buildCatalog, loadRealTools } from './catalog-data.js';
import { collectInterleaved, summarize } from './measure.js';
import { BENCH_QUERIES } from './queries.js';

/** The catalog size of the learning targets. */
const SIZE = 10_000;
const TERMS_PER_TOOL = 8;
/** Rounds over the query set for the query p50, the first few untimed. */
const ROUNDS = 60;
const WARM_ROUNDS = 5;

/** Learned terms for every other tool: the words of another tool's description, counts 1 to 5. */
function learnedExport(tools: readonly ToolDefinition[], analyzer: Analyzer): unknown {
  const byTool: Record<string, LearnedTerms> = {};
  for (let i = 0; i < tools.length; i += 2) {
    const other = tools[(i * 7919 + 13) % tools.length]!;
    const terms: Record<string, number> = {};
    for (const term of analyzer.analyze(other.description ?? other.name)) {
      if (Object.keys(terms).length >= TERMS_PER_TOOL) break;
      terms[term] = 1 + (Object.keys(terms).length % 5);
    }
    if (Object.keys(terms).length > 0) byTool[tools[i]!.name] = terms;
  }
  return { format: 'tool-search-learning', version: 1, profiles: { default: byTool } };
}

async function queryRatio(tools: readonly ToolDefinition[], learner: SearchLearner) {
  const plain = createCatalog(tools, { cache: createCatalogCache() });
  const learned = createCatalog(tools, { cache: createCatalogCache(), learner });
  await plain.search('warm up');
  await learned.search('warm up');
  const without: number[] = [];
  const withLearned: number[] = [];
  const timed = async (catalog: typeof plain, query: string, into: number[]) => {
    const start = performance.now();
    await catalog.search(query, { limit: 10 });
    into.push(performance.now() - start);
  };
  // Query by query, the two catalogs in turn (which goes first alternates): both see the
  // same machine, whatever else runs on it.
  for (let round = 0; round < ROUNDS; round++) {
    for (const query of BENCH_QUERIES) {
      if (round % 2 === 0) {
        await timed(plain, query, without);
        await timed(learned, query, withLearned);
      } else {
        await timed(learned, query, withLearned);
        await timed(plain, query, without);
      }
    }
  }
  // The first rounds warm both up.
  const warm = BENCH_QUERIES.length * WARM_ROUNDS;
  return { without: summarize(without.slice(warm)), with: summarize(withLearned.slice(warm)) };
}

async function assemblyRatio(tools: readonly ToolDefinition[], learner: SearchLearner) {
  const config = { enabled: 'on' };
  const search = { name: 'tool_search', arguments: { query: 'create github issue' } };
  const dispatch = async () => ({ status: 'ok' });
  let previous = assembleTools({
    tools,
    config,
    learning: createLearningSession({ learner }),
    cache: createAssemblyCache(),
  });
  await handleBridgeCall(previous, search, dispatch);
  const cold = async () => {
    const start = performance.now();
    const assembly = assembleTools({
      tools,
      config,
      learning: createLearningSession({ learner }),
      cache: createAssemblyCache(),
    });
    await handleBridgeCall(assembly, search, dispatch);
    return performance.now() - start;
  };
  const afterPair = async (iteration: number) => {
    const tool = tools[((iteration + 100) * 37) % tools.length]!.name;
    await learner.record({ terms: [`zzterm${iteration + 100}`], tool });
    const start = performance.now();
    const assembly = assembleTools({ tools, config, previous });
    await handleBridgeCall(assembly, search, dispatch);
    previous = assembly;
    return performance.now() - start;
  };
  const [coldTimes, pairTimes] = await collectInterleaved([cold, afterPair], {
    warmup: 1,
    iterations: 8,
    budgetMs: 30_000,
    minSamples: 3,
  });
  return { cold: summarize(coldTimes!), afterPair: summarize(pairTimes!) };
}

/** Runs the learning measurements and prints their table; returns the exit code. */
export async function runLearningBench(dataDir: string): Promise<number> {
  const { tools: real } = loadRealTools(dataDir);
  const { tools } = buildCatalog(real, SIZE, 1);
  const frozen = Object.freeze(tools);
  const learner = createSearchLearner();
  await learner.import(learnedExport(frozen, createAnalyzer(DEFAULT_BM25_TUNING.analyzer)));
  const learnedTools = (await learner.learnedTerms()).size;
  const queries = await queryRatio(frozen, learner);
  const assembly = await assemblyRatio(frozen, learner);
  const queryRatioValue = queries.with.p50 / queries.without.p50;
  const assemblyRatioValue = assembly.afterPair.p50 / assembly.cold.p50;
  const ms = (value: number) => `${value.toFixed(3)} ms`;
  const lines = [
    `learning from use at ${frozen.length} tools, ${learnedTools} with learned terms`,
    `query p50 without learned terms   ${ms(queries.without.p50)}`,
    `query p50 with learned terms      ${ms(queries.with.p50)}   ratio ${queryRatioValue.toFixed(3)}× (target ≤ 1.1×) ${queryRatioValue <= 1.1 ? 'PASS' : 'FAIL'}`,
    `cold assembly + first search p50  ${ms(assembly.cold.p50)}`,
    `after one new pair p50            ${ms(assembly.afterPair.p50)}   ratio 1/${(1 / assemblyRatioValue).toFixed(0)} (target ≤ 1/100) ${assemblyRatioValue <= 0.01 ? 'PASS' : 'FAIL'}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  return queryRatioValue <= 1.1 && assemblyRatioValue <= 0.01 ? 0 : 1;
}
