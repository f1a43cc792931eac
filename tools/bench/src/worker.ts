/**
 * One catalog size, in its own process (`node --expose-gc --import tsx worker.ts`),
 * so that heap numbers do not carry over between sizes. Sends a {@link SizeResult}
 * to the parent over IPC, or prints it as JSON when run by hand.
 */
import * as os from 'node:os';
import {
  createBm25Ranker,
  createCatalog,
  estimateToolTokens,
  type ToolDefinition,
} from '@tool-search/core';
import { modelFacingJson } from '@tool-search/core/internal';
import { type AssemblyPath, resolveAssemblyPath } from './assembly.js';
import { buildCatalog, freshCopies, loadRealTools, withChangedFraction } from './catalog-data.js';
import { type LongRunResult, runLongRun } from './long-run.js';
import {
  autoSettleMs,
  collect,
  collectBeforeSample,
  collectGarbage,
  collectInterleaved,
  hasGc,
  now,
  type SampleOptions,
  since,
  summarize,
  type TimedRun,
} from './measure.js';
import type { BenchOptions, OurRankerName } from './options.js';
import { createPeer, type Peer } from './peers.js';
import { BENCH_QUERIES } from './queries.js';
import { createRandom } from './random.js';
import type { Environment, SizeResult, SystemResult, TokenResult } from './results.js';
import {
  CHANGED_FRACTION,
  LIMIT,
  log,
  type OurSystem,
  queryAt,
  SMALL_CHANGED_FRACTION,
  settle,
} from './worker-common.js';
import { measureOurHeap, measurePeerHeap } from './worker-heap.js';

/** A timed run over the whole query set (one sample per query) on a built index. */
function queryRound(search: (query: string) => unknown): TimedRun {
  return async () => {
    const times: number[] = [];
    for (const query of BENCH_QUERIES) {
      const start = now();
      await settle(search(query));
      times.push(since(start));
    }
    return times;
  };
}

/** A timed measurement of one system, filled into one field of its result. */
interface Task {
  label: string;
  result: SystemResult;
  field:
    | 'coldBuild'
    | 'assemblyUnchanged'
    | 'assemblyChanged'
    | 'assemblyChangedTenth'
    | 'query'
    | 'queryRankerIndex';
  run: TimedRun;
}

async function runTasks(tasks: readonly Task[], sampling: SampleOptions): Promise<void> {
  if (tasks.length === 0) return;
  log(`${tasks.map((task) => task.label).join(', ')} (round-robin)`);
  const samples = await collectInterleaved(
    tasks.map((task) => task.run),
    sampling,
  );
  for (const [i, task] of tasks.entries()) task.result[task.field] = summarize(samples[i]!);
}

function ourSystem(name: OurRankerName): OurSystem {
  const freshRanker = () => createBm25Ranker({ preset: name });
  const call =
    name === 'default' ? 'createBm25Ranker()' : `createBm25Ranker({ preset: '${name}' })`;
  return {
    id: `bm25:${name}`,
    name,
    setup: `createCatalog(tools, { ranker }) with ranker = ${call} (id '${freshRanker().id}'), a new one per measurement and per cold build; each ranker remembers its last two indexes`,
    freshRanker,
  };
}

/** Our build tasks: cold build, assembly over an unchanged list, assembly with 1% changed. */
async function ourBuildTasks(options: {
  system: OurSystem;
  base: readonly ToolDefinition[];
  assembly: AssemblyPath;
  seed: number;
  settleMs: number | 'auto';
  result: SystemResult;
}): Promise<Task[]> {
  const { system, base, assembly, seed, settleMs, result } = options;
  // Each assembly task gets its own ranker of the preset (a runtime holds one), so that
  // the other tasks' lists, interleaved with it, never evict its index from a
  // per-instance cache: "unchanged" then always follows an assembly of the same list.
  const session = freshCopies(base);
  const unchangedRanker = system.freshRanker();
  const changedRanker = system.freshRanker();
  const tenthRanker = system.freshRanker();
  for (const ranker of [unchangedRanker, changedRanker, tenthRanker]) {
    await (await assembly.assemble(session, ranker)).search(queryAt(0), { limit: LIMIT });
  }
  const random = createRandom(seed + 7);
  return [
    {
      label: `${system.id} cold build`,
      result,
      field: 'coldBuild',
      run: async (iteration) => {
        const tools = freshCopies(base);
        await collectBeforeSample(settleMs);
        const start = now();
        const catalog = createCatalog(tools, { ranker: system.freshRanker() });
        await catalog.search(queryAt(iteration), { limit: LIMIT });
        return since(start);
      },
    },
    {
      label: `${system.id} assembly, unchanged`,
      result,
      field: 'assemblyUnchanged',
      run: async (iteration) => {
        await collectBeforeSample(settleMs);
        const start = now();
        const assembled = await assembly.assemble(session, unchangedRanker);
        await assembled.search(queryAt(iteration), { limit: LIMIT });
        return since(start);
      },
    },
    {
      label: `${system.id} assembly, 1% changed`,
      result,
      field: 'assemblyChanged',
      run: async (iteration) => {
        const tools = withChangedFraction(session, CHANGED_FRACTION, random, iteration + 1_000);
        await collectBeforeSample(settleMs);
        const start = now();
        const assembled = await assembly.assemble(tools, changedRanker);
        await assembled.search(queryAt(iteration), { limit: LIMIT });
        return since(start);
      },
    },
    {
      label: `${system.id} assembly, 0.1% changed`,
      result,
      field: 'assemblyChangedTenth',
      run: async (iteration) => {
        const tools = withChangedFraction(
          session,
          SMALL_CHANGED_FRACTION,
          random,
          iteration + 100_000,
        );
        await collectBeforeSample(settleMs);
        const start = now();
        const assembled = await assembly.assemble(tools, tenthRanker);
        await assembled.search(queryAt(iteration), { limit: LIMIT });
        return since(start);
      },
    },
  ];
}

function peerBuildTask(
  peer: Peer,
  base: readonly ToolDefinition[],
  settleMs: number | 'auto',
  result: SystemResult,
): Task {
  return {
    label: `${peer.id} cold build`,
    result,
    field: 'coldBuild',
    run: async (iteration) => {
      await collectBeforeSample(settleMs);
      const start = now();
      const index = await peer.build(base);
      await settle(index.search(queryAt(iteration), LIMIT));
      return since(start);
    },
  };
}

/** Our query tasks: through the catalog, and on the ranker's index alone. */
async function ourQueryTasks(
  system: OurSystem,
  base: readonly ToolDefinition[],
  result: SystemResult,
): Promise<Task[]> {
  const tools = freshCopies(base);
  const ranker = system.freshRanker();
  const catalog = createCatalog(tools, { ranker });
  await catalog.search(queryAt(0), { limit: LIMIT });
  const index = await ranker.index(tools);
  return [
    {
      label: `${system.id} query`,
      result,
      field: 'query',
      run: queryRound((query) => catalog.search(query, { limit: LIMIT })),
    },
    {
      label: `${system.id} query (ranker index)`,
      result,
      field: 'queryRankerIndex',
      run: queryRound((query) => index.search(query, LIMIT)),
    },
  ];
}

async function peerQueryTask(
  peer: Peer,
  base: readonly ToolDefinition[],
  result: SystemResult,
): Promise<Task> {
  const index = await peer.build(base);
  return {
    label: `${peer.id} query`,
    result,
    field: 'query',
    run: queryRound((query) => index.search(query, LIMIT)),
  };
}

async function measureTokens(
  base: readonly ToolDefinition[],
  sampling: SampleOptions,
): Promise<TokenResult> {
  log(`[${base.length}] token estimate`);
  const cold = await collect(async () => {
    const tools = freshCopies(base);
    const start = now();
    estimateToolTokens(tools);
    return since(start);
  }, sampling);
  const warmList = freshCopies(base);
  const estimateTotal = estimateToolTokens(warmList);
  const warm = await collect(async () => {
    const start = now();
    estimateToolTokens(warmList);
    return since(start);
  }, sampling);
  const result: TokenResult = {
    estimateCold: summarize(cold),
    estimateWarm: summarize(warm),
    estimateTotal,
  };
  try {
    const loadStart = now();
    const { countTokens } = await import('gpt-tokenizer');
    countTokens('warm up the encoder');
    const loadMs = since(loadStart);
    const texts = base.map(modelFacingJson);
    let total = 0;
    const count = await collect(async () => {
      const start = now();
      let sum = 0;
      for (const text of texts) sum += countTokens(text);
      const elapsed = since(start);
      total = sum;
      return elapsed;
    }, sampling);
    result.gptTokenizer = {
      encoding: 'o200k_base',
      loadMs,
      count: summarize(count),
      total,
    };
  } catch (error) {
    log(`gpt-tokenizer unavailable: ${error instanceof Error ? error.message : String(error)}`);
  }
  return result;
}

function environment(loadAtStart: number): Environment {
  const cpus = os.cpus();
  return {
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: os.availableParallelism?.() ?? cpus.length,
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    gcExposed: hasGc(),
    loadAverage: [loadAtStart, os.loadavg()[0] ?? 0],
  };
}

/** The long run at one size (`--rounds`). */
export async function runLongRunSize(size: number, options: BenchOptions): Promise<LongRunResult> {
  const { tools: real } = loadRealTools(options.data);
  const { tools: base } = buildCatalog(real, size, options.seed);
  const assembly = await resolveAssemblyPath(options.assembly);
  log(`[${size}] long run: ${options.rounds} assemblies`);
  return runLongRun(base, options.rounds, assembly, options.seed, CHANGED_FRACTION);
}

/** Measures one size. */
export async function runSize(size: number, options: BenchOptions): Promise<SizeResult> {
  const start = now();
  const loadAtStart = os.loadavg()[0] ?? 0;
  const { tools: real, source } = loadRealTools(options.data);
  if (source.kind === 'fixtures')
    log(`[${size}] using the vendored fixtures (${source.fallbackReason})`);
  const { tools: base, realCount, syntheticCount } = buildCatalog(real, size, options.seed);
  const assembly = await resolveAssemblyPath(options.assembly);
  const sampling: SampleOptions = {
    warmup: options.warmup,
    iterations: options.iterations,
    minSamples: options.minSamples,
    budgetMs: options.budgetMs,
  };
  const ours = options.rankers.map(ourSystem);
  const peers = options.peers.map(createPeer);
  const oursResults = ours.map(
    (system): SystemResult => ({
      id: system.id,
      kind: 'ours',
      setup: system.setup,
    }),
  );
  const peerResults = peers.map((peer): SystemResult => {
    const result: SystemResult = { id: peer.id, kind: 'peer', setup: peer.setup };
    if (base.length < peer.minTools) result.skipped = `needs at least ${peer.minTools} tools`;
    return result;
  });
  // Heap first for every system, while no timing loop has filled any cache.
  for (const [i, system] of ours.entries()) {
    await measureOurHeap(system, base, assembly, options.seed, oursResults[i]!);
  }
  for (const [i, peer] of peers.entries()) {
    if (peerResults[i]!.skipped === undefined) await measurePeerHeap(peer, base, peerResults[i]!);
  }
  const measuredPeers = peers
    .map((peer, i) => ({ peer, result: peerResults[i]! }))
    .filter(({ result }) => result.skipped === undefined);
  // Builds and assemblies of every system, round-robin; then queries, round-robin,
  // over indexes built beforehand (held only for the query phase).
  const buildTasks: Task[] = [];
  for (const [i, system] of ours.entries()) {
    buildTasks.push(
      ...(await ourBuildTasks({
        system,
        base,
        assembly,
        seed: options.seed,
        settleMs: options.settleMs,
        result: oursResults[i]!,
      })),
    );
  }
  for (const { peer, result } of measuredPeers) {
    buildTasks.push(peerBuildTask(peer, base, options.settleMs, result));
  }
  // What the first sample's collection will leave idle, for the report.
  collectGarbage();
  const settleMs =
    options.settleMs === 'auto'
      ? autoSettleMs(process.memoryUsage().heapTotal)
      : hasGc()
        ? options.settleMs
        : 0;
  await runTasks(buildTasks, sampling);
  buildTasks.length = 0;

  const queryTasks: Task[] = [];
  for (const [i, system] of ours.entries()) {
    queryTasks.push(...(await ourQueryTasks(system, base, oursResults[i]!)));
  }
  for (const { peer, result } of measuredPeers) {
    queryTasks.push(await peerQueryTask(peer, base, result));
  }
  await runTasks(queryTasks, sampling);
  queryTasks.length = 0;
  const systems = [...oursResults, ...peerResults];
  const tokens = await measureTokens(base, sampling);
  return {
    size: base.length,
    realCount,
    syntheticCount,
    source,
    seed: options.seed,
    assembly: { id: assembly.id, description: assembly.description },
    settle: { option: options.settleMs, ms: settleMs },
    queries: BENCH_QUERIES.length,
    environment: environment(loadAtStart),
    systems,
    tokens,
    elapsedMs: since(start),
  };
}

async function main(): Promise<void> {
  const sizeIndex = process.argv.indexOf('--size');
  const optionsIndex = process.argv.indexOf('--options');
  const size = Number(process.argv[sizeIndex + 1]);
  const options = JSON.parse(process.argv[optionsIndex + 1] ?? '{}') as BenchOptions;
  if (sizeIndex < 0 || optionsIndex < 0 || !Number.isInteger(size) || size < 1) {
    throw new Error('usage: worker.ts --size <n> --options <json>');
  }
  if (!hasGc()) log('warning: run with --expose-gc for clean heap numbers');
  const result =
    options.rounds > 0 ? await runLongRunSize(size, options) : await runSize(size, options);
  if (process.send) {
    await new Promise<void>((resolve, reject) =>
      process.send!({ type: 'result', result }, (error: Error | null) =>
        error ? reject(error) : resolve(),
      ),
    );
    process.disconnect?.();
  } else {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  }
}

main().catch((error: unknown) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
});
