import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { AssemblyChoice } from './assembly.js';

/** The rankers of ours the benchmark can measure: presets of `createBm25Ranker()`. */
export type OurRankerName = 'default' | 'spec';

/** Command-line options of the benchmark. */
export interface BenchOptions {
  /** Catalog sizes, one child process each. */
  sizes: number[];
  /** The most timed samples per measurement (query measurements: rounds over the query set). */
  iterations: number;
  /** Untimed runs before each measurement. */
  warmup: number;
  /** Time budget per measurement; slow peers stop early, after at least `minSamples`. */
  budgetMs: number;
  /** The fewest timed samples per measurement, whatever the budget. */
  minSamples: number;
  /** Our rankers to measure. */
  rankers: OurRankerName[];
  /** Peers to measure. */
  peers: PeerName[];
  /** The shared data folder (holds `mcp-real/combined-catalog.json`). */
  data: string;
  /** Seed of the synthetic generator and of the 1% change. */
  seed: number;
  /** How assemblies are made: the bridge when available (`auto`), or forced. */
  assembly: AssemblyChoice;
  /** Print JSON instead of tables. */
  json: boolean;
  /**
   * The gateway benchmark instead of the tables: the first `tool_search` of fresh gateway
   * processes against the median of the next 20 (see `gateway/first-search.ts`).
   */
  gateway: boolean;
  /** When above 0: the long run instead of the tables, this many 1%-changed assemblies. */
  rounds: number;
  /**
   * Idle milliseconds after the full collection before each timed build and assembly,
   * or `auto` (scaled with the heap; see `collectBeforeSample`).
   */
  settleMs: number | 'auto';
}

/** The peer libraries measured side by side. */
export type PeerName = 'minisearch' | 'minisearch-stop' | 'orama' | 'wink-bm25';

export const ALL_PEERS: readonly PeerName[] = [
  'minisearch',
  'minisearch-stop',
  'orama',
  'wink-bm25',
];
const ALL_RANKERS: readonly OurRankerName[] = ['default', 'spec'];

/** `tools/bench/../../../shared/data`, i.e. `/work/shared/data` beside the repository. */
export const DEFAULT_DATA_DIR = fileURLToPath(new URL('../../../../shared/data', import.meta.url));

export const DEFAULT_OPTIONS: Readonly<BenchOptions> = Object.freeze<BenchOptions>({
  sizes: [100, 1_000, 10_000],
  iterations: 50,
  warmup: 3,
  budgetMs: 6_000,
  minSamples: 3,
  rankers: ['default'],
  peers: [...ALL_PEERS],
  data: DEFAULT_DATA_DIR,
  seed: 1,
  assembly: 'auto',
  json: false,
  gateway: false,
  rounds: 0,
  settleMs: 'auto',
});

export const USAGE = `Usage: pnpm bench [options]

  --sizes 100,1000,10000   catalog sizes, one child process each
  --cold                   instead: cold starts, a fresh node per run (import, build,
                           first search) for ours, the AI SDK adapter's first step,
                           minisearch and orama at 50, 500 and
                           10,000 tools; --runs <n> per contender (default 5), --data
  --learning               instead: what learning from use costs at 10,000 tools with
                           learned terms on half (query p50 ratio, an assembly after
                           one new recorded pair against a cold one); only --data applies
  --iterations 50          most timed samples per measurement (queries: rounds over the query set)
  --warmup 3               untimed runs before each measurement
  --budget-ms 6000         time budget per measurement (at least --min-samples are taken)
  --min-samples 3          fewest timed samples per measurement
  --rankers default,spec   our BM25 presets to measure (default: default)
  --peers minisearch,minisearch-stop,orama,wink-bm25
                           peers to measure (default: all; 'none' for none)
  --data <dir>             shared data folder with mcp-real/combined-catalog.json
                           (default: ../shared/data beside the repository; falls back
                           to tools/bench/fixtures when it is not readable)
  --seed 1                 seed of the synthetic tools and of the 1% change
  --assembly auto          auto | bridge | core: assemble with @tool-search/bridge's
                           assembleTools (auto: when it exists) or the core stand-in
  --rounds 1000            the long run instead of the tables: this many assemblies of one
                           session, 1% of its tools changed each time, heap read at 10
                           checkpoints (e.g. --sizes 10000 --rounds 1000)
  --settle-ms auto         idle time after the full collection that starts each timed build
                           and assembly, for the collector's concurrent work: auto (a
                           quarter of a millisecond per MiB of heap, 10 to 500 ms) or a
                           number (0: time right after the collection)
  --gateway                the gateway benchmark instead: the first tool_search of a fresh
                           gateway process (loopback HTTP, 397 recorded tools) against the
                           median of the next 20: five gateways with the warm-up (target: their
                           median ratio at most 2x), one without; needs apps/gateway built
  --json                   print JSON instead of tables
  --help                   this text

Environment: BENCH_NODE_OPTIONS adds node flags to every size's process, e.g.
  BENCH_NODE_OPTIONS='--cpu-prof --cpu-prof-dir=.scratch/prof' pnpm bench --sizes 10000 --peers none`;

// Every value is read as a string and checked below, so that the messages name the flag
// and the value; `--help` and `--json` are the only switches.
const FLAGS = {
  sizes: { type: 'string' },
  iterations: { type: 'string' },
  warmup: { type: 'string' },
  'budget-ms': { type: 'string' },
  'min-samples': { type: 'string' },
  rankers: { type: 'string' },
  peers: { type: 'string' },
  data: { type: 'string' },
  seed: { type: 'string' },
  assembly: { type: 'string' },
  rounds: { type: 'string' },
  'settle-ms': { type: 'string' },
  json: { type: 'boolean' },
  gateway: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Thrown for a bad command line; the CLI prints the message and the usage. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

function positiveInteger(flag: string, value: string): number {
  const number = Number(value.replace(/_/g, ''));
  if (!Number.isInteger(number) || number < 1) {
    throw new UsageError(`${flag} expects a positive integer, got '${value}'.`);
  }
  return number;
}

function nonNegativeInteger(flag: string, value: string): number {
  const number = Number(value.replace(/_/g, ''));
  if (!Number.isInteger(number) || number < 0) {
    throw new UsageError(`${flag} expects an integer of 0 or more, got '${value}'.`);
  }
  return number;
}

function list<T extends string>(flag: string, value: string, allowed: readonly T[]): T[] {
  if (value === 'none') return [];
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  for (const item of items) {
    if (!allowed.includes(item as T)) {
      throw new UsageError(`${flag}: unknown '${item}'. Use any of ${allowed.join(', ')}.`);
    }
  }
  return [...new Set(items)] as T[];
}

/**
 * Parses the command line (`--flag value` or `--flag=value`) with `node:util`
 * `parseArgs`, in order: the first bad argument is the one reported, and `--help`
 * answers only when nothing before it was bad. A `--` separator is skipped.
 *
 * @param argv - the arguments after the script name
 * @returns the options, or `'help'` when `--help` was asked
 * @throws {@link UsageError} for an unknown flag, a positional argument or a bad value
 */
export function parseOptions(argv: readonly string[]): BenchOptions | 'help' {
  const options: BenchOptions = {
    ...DEFAULT_OPTIONS,
    sizes: [...DEFAULT_OPTIONS.sizes],
    rankers: [...DEFAULT_OPTIONS.rankers],
    peers: [...DEFAULT_OPTIONS.peers],
  };
  // Not strict: parseArgs's own errors would name no value, and a value starting with a
  // dash (`--sizes --json`) must reach the number check as before.
  const { tokens } = parseArgs({
    args: argv.filter((argument) => argument !== '--'),
    options: FLAGS,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  for (const token of tokens) {
    if (token.kind === 'positional') {
      throw new UsageError(`Unexpected argument '${token.value}'.`);
    }
    if (token.kind !== 'option') continue;
    const flag = `--${token.name}`;
    if (!Object.hasOwn(FLAGS, token.name)) {
      throw new UsageError(
        token.rawName.startsWith('--')
          ? `Unknown option '${flag}'.`
          : `Unexpected argument '${token.rawName}'.`,
      );
    }
    const name = token.name as keyof typeof FLAGS;
    if (FLAGS[name].type === 'boolean') {
      if (token.value !== undefined) {
        throw new UsageError(`${flag} takes no value, got '${token.value}'.`);
      }
      if (name === 'help') return 'help';
      if (name === 'gateway') options.gateway = true;
      else options.json = true;
      continue;
    }
    const value = token.value;
    if (value === undefined) throw new UsageError(`${flag} expects a value.`);
    switch (name) {
      case 'sizes':
        options.sizes = value.split(',').map((size) => positiveInteger(flag, size.trim()));
        break;
      case 'iterations':
        options.iterations = positiveInteger(flag, value);
        break;
      case 'warmup':
        options.warmup = nonNegativeInteger(flag, value);
        break;
      case 'budget-ms':
        options.budgetMs = nonNegativeInteger(flag, value);
        break;
      case 'min-samples':
        options.minSamples = positiveInteger(flag, value);
        break;
      case 'rankers':
        options.rankers = list(flag, value, ALL_RANKERS);
        if (options.rankers.length === 0)
          throw new UsageError(`${flag} needs at least one ranker.`);
        break;
      case 'peers':
        options.peers = list(flag, value, ALL_PEERS);
        break;
      case 'data':
        options.data = value;
        break;
      case 'assembly':
        if (value !== 'auto' && value !== 'bridge' && value !== 'core') {
          throw new UsageError(`${flag}: use auto, bridge or core, not '${value}'.`);
        }
        options.assembly = value;
        break;
      case 'seed':
        options.seed = nonNegativeInteger(flag, value);
        break;
      case 'rounds':
        options.rounds = nonNegativeInteger(flag, value);
        break;
      case 'settle-ms':
        options.settleMs = value === 'auto' ? 'auto' : nonNegativeInteger(flag, value);
        break;
    }
  }
  options.minSamples = Math.min(options.minSamples, options.iterations);
  return options;
}
