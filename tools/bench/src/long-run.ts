/**
 * The long run (`--rounds N`): one session assembles N times in a row, each time with
 * 1% of its tools replaced by new objects (cumulative, as a registry drifts), and the
 * heap is read after full garbage collections at checkpoints. A memo that is never
 * released, or an index chain that keeps its ancestors, shows as a heap that climbs.
 * Measured, never asserted.
 */
import type { Ranker, ToolCatalog, ToolDefinition } from '@tool-search/core';
import { createBm25Ranker } from '@tool-search/core';
import type { AssemblyPath } from './assembly.js';
import { withChangedFraction } from './catalog-data.js';
import { collectGarbage, now, since, usedBytes } from './measure.js';
import { BENCH_QUERIES } from './queries.js';
import { createRandom } from './random.js';
import { formatBytes, formatDuration } from './report.js';

/** One checkpoint of the long run. */
export interface LongRunCheckpoint {
  /** Assemblies done (0: after the first one). */
  round: number;
  /** Heap and array buffers in use after full GCs, the current list and catalog held. */
  bytes: number;
  /** Median time of the assemblies (with their first search) since the last checkpoint. */
  p50Ms: number;
}

/** What the long run measured. */
export interface LongRunResult {
  size: number;
  rounds: number;
  changedFraction: number;
  checkpoints: LongRunCheckpoint[];
}

const CHECKPOINTS = 10;

/** What the session holds between assemblies: its current list and catalog. */
interface Session {
  tools: ToolDefinition[];
  catalog: ToolCatalog | undefined;
}

/**
 * One assembly of the session's current list and its first search, in a frame of its
 * own. The caller's frame must never hold a catalog or a list across an `await`: V8
 * keeps an async function's temporaries in its generator's register file, and a stale
 * register there (say, the first assembly's catalog) keeps that catalog, its name map
 * and the 10,000 original tool objects alive for the whole run. A heap snapshot showed
 * exactly that ("Generator parameters_and_registers -> catalog -> names closure -> list"),
 * measured as a step in the heap once most original tools had been replaced. This
 * frame ends with each call, so whatever its registers held goes with it.
 *
 * @returns the time of the assembly with its first search, in milliseconds
 */
async function assembleRound(
  session: Session,
  assembly: AssemblyPath,
  ranker: Ranker,
  query: string,
): Promise<number> {
  session.catalog = undefined;
  const start = now();
  const catalog = await assembly.assemble(session.tools, ranker);
  await catalog.search(query, { limit: 5 });
  const ms = since(start);
  session.catalog = catalog;
  return ms;
}

/**
 * Runs `rounds` assemblies of 1%-changed lists over `base` with one ranker.
 *
 * @throws what the assembly throws
 */
export async function runLongRun(
  base: readonly ToolDefinition[],
  rounds: number,
  assembly: AssemblyPath,
  seed: number,
  changedFraction: number,
): Promise<LongRunResult> {
  const random = createRandom(seed + 13);
  const ranker = createBm25Ranker();
  // Lists and catalogs live only in `session` and in the frames of synchronous calls and
  // of assembleRound (see there why): nothing of them may stay in this frame's registers.
  const session: Session = { tools: structuredClone(base as ToolDefinition[]), catalog: undefined };
  await assembleRound(session, assembly, ranker, BENCH_QUERIES[0]!);
  const checkpoints: LongRunCheckpoint[] = [];
  const checkpoint = (round: number, times: number[]) => {
    collectGarbage();
    const sorted = times.sort((a, b) => a - b);
    checkpoints.push({
      round,
      bytes: usedBytes(),
      p50Ms: sorted.length === 0 ? Number.NaN : sorted[sorted.length >> 1]!,
    });
  };
  checkpoint(0, []);
  const every = Math.max(1, Math.floor(rounds / CHECKPOINTS));
  let times: number[] = [];
  for (let round = 1; round <= rounds; round++) {
    // Each turn of a real session is its own task of the event loop (a request, a
    // message): yielding lets weak references and finalizers settle as they would there.
    await new Promise<void>((resolve) => setImmediate(resolve));
    session.tools = withChangedFraction(session.tools, changedFraction, random, round);
    const query = BENCH_QUERIES[round % BENCH_QUERIES.length]!;
    times.push(await assembleRound(session, assembly, ranker, query));
    if (round % every === 0 || round === rounds) {
      checkpoint(round, times);
      times = [];
    }
  }
  return { size: base.length, rounds, changedFraction, checkpoints };
}

/** The long run as a table: heap at each checkpoint, its change from the first, and time. */
export function formatLongRun(result: LongRunResult): string {
  const first = result.checkpoints[0]?.bytes ?? Number.NaN;
  const lines = [
    `## Long run: ${result.rounds.toLocaleString('en-US')} assemblies of ${result.size.toLocaleString('en-US')} tools, ${result.changedFraction * 100}% changed each (cumulative)`,
    '',
    '| after assembly | heap + array buffers | vs. the first | assembly p50 since the last row |',
    '|--:|--:|--:|--:|',
  ];
  for (const point of result.checkpoints) {
    lines.push(
      `| ${point.round.toLocaleString('en-US')} | ${formatBytes(point.bytes)} | ${formatBytes(point.bytes - first)} | ${formatDuration(point.p50Ms)} |`,
    );
  }
  return lines.join('\n');
}
