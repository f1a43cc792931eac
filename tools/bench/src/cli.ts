/**
 * `pnpm bench`: runs one child process per catalog size and prints a table per size,
 * ratios against each peer, and the issue's targets (or JSON with `--json`).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runColdBench } from './cold.js';
import {
  FIRST_SEARCH_TARGET_RATIO,
  type FirstSearchRun,
  formatFirstSearch,
  medianRatio,
  runFirstSearch,
} from './gateway/first-search.js';
import { runLearningBench } from './learning-bench.js';
import { formatLongRun, type LongRunResult } from './long-run.js';
import { type BenchOptions, DEFAULT_DATA_DIR, parseOptions, USAGE, UsageError } from './options.js';
import {
  checkScaleTargets,
  checkTargets,
  formatSetup,
  formatSizeReport,
  SCALE_TARGET_SIZE,
  TARGET_SIZE,
} from './report.js';
import type { SizeResult } from './results.js';

const WORKER = fileURLToPath(new URL('./worker.ts', import.meta.url));

/** Extra node flags for the children, e.g. `--cpu-prof` (from `BENCH_NODE_OPTIONS`). */
function extraNodeFlags(): string[] {
  return (process.env['BENCH_NODE_OPTIONS'] ?? '').split(/\s+/).filter(Boolean);
}

function runWorker<T = SizeResult>(size: number, options: BenchOptions): Promise<T> {
  const args = [
    '--expose-gc',
    ...extraNodeFlags(),
    '--import',
    import.meta.resolve('tsx'),
    WORKER,
    '--size',
    String(size),
    '--options',
    JSON.stringify(options),
  ];
  return new Promise((resolve, reject) => {
    // The child's stdout goes to our stderr, so that --json output stays clean.
    const child = spawn(process.execPath, args, { stdio: ['ignore', 2, 2, 'ipc'] });
    let result: T | undefined;
    child.on('message', (message: { type?: string; result?: T }) => {
      if (message?.type === 'result') result = message.result;
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (result !== undefined && code === 0) resolve(result);
      else reject(new Error(`the ${size}-tool worker exited with ${signal ?? `code ${code}`}`));
    });
  });
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.includes('--cold')) {
    const at = args.indexOf('--data');
    const runsAt = args.indexOf('--runs');
    return runColdBench(
      at >= 0 && args[at + 1] ? args[at + 1]! : DEFAULT_DATA_DIR,
      runsAt >= 0 ? Number(args[runsAt + 1]) || 5 : 5,
    );
  }
  if (args.includes('--learning')) {
    const at = args.indexOf('--data');
    return runLearningBench(at >= 0 && args[at + 1] ? args[at + 1]! : DEFAULT_DATA_DIR);
  }
  let options: BenchOptions | 'help';
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n\n${USAGE}\n`);
      return 2;
    }
    throw error;
  }
  if (options === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (options.gateway) return gatewayRuns(options);
  if (options.rounds > 0) return longRuns(options);
  const results: SizeResult[] = [];
  let failed = false;
  for (const size of options.sizes) {
    process.stderr.write(`[${size}] starting a worker\n`);
    try {
      const result = await runWorker(size, options);
      results.push(result);
      if (!options.json) process.stdout.write(`\n${formatSizeReport(result)}\n`);
    } catch (error) {
      failed = true;
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    }
  }
  if (options.json) {
    const targets = results.map((result) => ({ size: result.size, checks: checkTargets(result) }));
    const scaleTargets = results.map((result) => ({
      size: result.size,
      checks: checkScaleTargets(result),
    }));
    const report = {
      options,
      targetSize: TARGET_SIZE,
      scaleTargetSize: SCALE_TARGET_SIZE,
      results,
      targets,
      scaleTargets,
    };
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else if (results.length > 0) {
    process.stdout.write(`\n${formatSetup(results)}\n`);
  }
  return failed ? 1 : 0;
}

/** Fresh gateways with the warm-up, then one without it for comparison. */
const GATEWAY_RUNS = [true, true, true, true, true, false];
/** The searches after the first one, of which the median is taken. */
const FOLLOWING_SEARCHES = 20;

async function gatewayRuns(options: BenchOptions): Promise<number> {
  const runs: FirstSearchRun[] = [];
  for (const warmUp of GATEWAY_RUNS) {
    process.stderr.write(`[gateway] a fresh gateway, warm-up ${warmUp ? 'on' : 'off'}\n`);
    runs.push(await runFirstSearch(warmUp, FOLLOWING_SEARCHES));
  }
  if (options.json) process.stdout.write(`${JSON.stringify({ runs }, null, 2)}\n`);
  else process.stdout.write(`\n${formatFirstSearch(runs)}\n`);
  return medianRatio(runs) <= FIRST_SEARCH_TARGET_RATIO ? 0 : 1;
}

async function longRuns(options: BenchOptions): Promise<number> {
  const results: LongRunResult[] = [];
  let failed = false;
  for (const size of options.sizes) {
    process.stderr.write(`[${size}] starting a worker (long run)\n`);
    try {
      const result = await runWorker<LongRunResult>(size, options);
      results.push(result);
      if (!options.json) process.stdout.write(`\n${formatLongRun(result)}\n`);
    } catch (error) {
      failed = true;
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    }
  }
  if (options.json) process.stdout.write(`${JSON.stringify({ options, results }, null, 2)}\n`);
  return failed ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
