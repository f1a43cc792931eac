import { parseArgs } from 'node:util';

/** Command-line options of the load tool. */
export interface LoadOptions {
  /** Concurrent MCP sessions, each over its own HTTP connection. */
  sessions: number;
  /** Operations per session (a write and its read-back count as one). */
  operations: number;
  /** Profiles (tokens) in the generated config, 1 to {@link MAX_PROFILES}. */
  profiles: number;
  /** Run the fault scenario instead of the load run. */
  fault: boolean;
  /**
   * Run the approvals scenario instead: every call needs the person's approval, two at
   * a time per session, and every answer must reach its own call.
   */
  approvals: boolean;
  /** Sessions that write to the memory graph (the others only read it). */
  memoryWriters: number;
  /** Put `"maxConcurrency": 1` on the memory server (a per-upstream queue). */
  memoryQueue: boolean;
  /** The client's timeout of one request, in milliseconds. */
  requestTimeoutMs: number;
  /** The whole run's budget in milliseconds: past it the gateway is stopped and the run fails. */
  budgetMs: number;
  /** Seed of each session's sequence of operations. */
  seed: number;
  /** Print JSON instead of tables. */
  json: boolean;
  /** Gateway replicas on a shared Redis store behind nginx (1: one process, no store). */
  replicas: number;
  /** The Redis store of the replicas; absent: the run starts a redis-server of its own. */
  store?: string;
  /**
   * Run the baseline instead: the same `echo` calls against the upstream served over
   * Streamable HTTP on its own and through the gateway, interleaved in one run.
   */
  baseline: boolean;
  /** The baseline's concurrency levels (sessions at once). */
  levels: number[];
  /** The baseline's rounds: each level runs this many times on every arm, interleaved. */
  rounds: number;
  /** Also measure the gateway with each of its extras switched off (5 more arms). */
  extras: boolean;
  /**
   * Another build of the gateway CLI (e.g. main's `apps/gateway/dist/cli.js`), run as one
   * more arm of the baseline, interleaved with the others: before and after in one run.
   */
  compare?: string;
  /** Write the baseline gateway's CPU profile (`node --cpu-prof`) into this folder. */
  cpuProf?: string;
  /**
   * The baseline's gateway arm runs with OpenTelemetry on: traces over OTLP/protobuf to a
   * sink the run starts, and a Prometheus reader (the cost of tracing, against a run without).
   */
  otel: boolean;
}

/** The most profiles the generated config has. */
export const MAX_PROFILES = 4;

/** The defaults of {@link LoadOptions}. */
export const DEFAULT_OPTIONS: Readonly<LoadOptions> = Object.freeze({
  sessions: 20,
  operations: 30,
  profiles: 3,
  fault: false,
  approvals: false,
  memoryWriters: 1,
  memoryQueue: false,
  requestTimeoutMs: 30_000,
  budgetMs: 300_000,
  seed: 1,
  json: false,
  replicas: 1,
  baseline: false,
  levels: [1, 10, 50, 100],
  rounds: 2,
  extras: true,
  otel: false,
});

/** The help text of `pnpm load --help`. */
export const USAGE = `Usage: pnpm load [options]

  --sessions 20          concurrent MCP sessions over real HTTP (at most 90)
  --operations 30        operations per session (search, describe, calls, writes, probes)
  --profiles 3           profiles (tokens) in the generated config, 1 to ${MAX_PROFILES}
  --memory-writers 1     sessions that write to the memory graph; server-memory loses
                         concurrent writes by itself, so more than 1 loses writes unless
                         --memory-queue holds them in line
  --memory-queue         set "maxConcurrency": 1 on the memory server (a per-upstream queue)
  --request-timeout 30   the client's timeout of one request, in seconds
  --budget 300           the whole run's budget in seconds; past it everything is stopped
                         (1200 with --baseline)
  --seed 1               seed of each session's sequence of operations
  --fault                the fault run instead: kill an upstream mid-call, hang another,
                         SIGTERM the gateway mid-call; prints what every client got
  --approvals            the approvals run instead: each session makes --operations
                         write_file calls that need approval, two at a time (one the
                         client allows, one it denies, decided from the call's own
                         arguments); prints questions asked, answered, crossed, lost
  --replicas 1           gateway replicas on a shared Redis store behind nginx (round
                         robin, no stickiness); needs redis-server and nginx (Debian)
  --store redis://H:P    the replicas' Redis (default: a redis-server the run starts)
  --baseline             the baseline run instead: --operations echo calls per session
                         against server-everything served over Streamable HTTP on its
                         own and through the gateway (stdio to it), interleaved; p50,
                         p99 and calls/s per level and the ratios, then the gateway
                         with each of its extras switched off in turn
  --levels 1,10,50,100   the baseline's concurrency levels (sessions at once, 1 to 100)
  --rounds 2             the baseline's rounds per level and arm (interleaved)
  --no-extras            the baseline without the rows of the gateway's extras
  --compare CLI          one more baseline arm: another build of the gateway (its
                         apps/gateway/dist/cli.js), e.g. main's, for before and after
  --otel                 the baseline's gateway arm with OpenTelemetry on (traces over
                         OTLP/protobuf to a sink the run starts, a Prometheus reader)
  --cpu-prof DIR         the baseline gateway runs under node --cpu-prof, its profile
                         written into DIR when it exits
  --json                 print JSON instead of tables
  --help                 this text`;

/** Thrown for a bad command line; the CLI prints the message and the usage. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

function integer(flag: string, value: string | undefined, min: number, max: number): number {
  const number = Number(value);
  if (value === undefined || !Number.isInteger(number) || number < min || number > max) {
    throw new UsageError(`--${flag} expects an integer from ${min} to ${max}, got '${value}'.`);
  }
  return number;
}

/**
 * Parses the command line with `node:util` `parseArgs`.
 *
 * @param argv - the arguments after the script name
 * @returns the options, or `'help'` when `--help` was asked
 * @throws {@link UsageError} for an unknown flag or a bad value
 */
export function parseOptions(argv: readonly string[]): LoadOptions | 'help' {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv.filter((argument) => argument !== '--'),
      strict: true,
      allowPositionals: false,
      options: {
        sessions: { type: 'string' },
        operations: { type: 'string' },
        profiles: { type: 'string' },
        'memory-writers': { type: 'string' },
        'memory-queue': { type: 'boolean' },
        replicas: { type: 'string' },
        store: { type: 'string' },
        'request-timeout': { type: 'string' },
        budget: { type: 'string' },
        seed: { type: 'string' },
        fault: { type: 'boolean' },
        approvals: { type: 'boolean' },
        baseline: { type: 'boolean' },
        levels: { type: 'string' },
        rounds: { type: 'string' },
        'cpu-prof': { type: 'string' },
        'no-extras': { type: 'boolean' },
        otel: { type: 'boolean' },
        compare: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values['help'] === true) return 'help';
  const get = (flag: string) => values[flag] as string | undefined;
  const options: LoadOptions = { ...DEFAULT_OPTIONS };
  // The gateway's own cap is 100 sessions; the fault run adds a few of its own.
  if (get('sessions') !== undefined) options.sessions = integer('sessions', get('sessions'), 1, 90);
  if (get('operations') !== undefined) {
    options.operations = integer('operations', get('operations'), 1, 10_000);
  }
  if (get('profiles') !== undefined) {
    options.profiles = integer('profiles', get('profiles'), 1, MAX_PROFILES);
  }
  if (get('memory-writers') !== undefined) {
    options.memoryWriters = integer('memory-writers', get('memory-writers'), 0, 90);
  }
  if (get('request-timeout') !== undefined) {
    options.requestTimeoutMs = integer('request-timeout', get('request-timeout'), 1, 600) * 1000;
  }
  if (get('budget') !== undefined)
    options.budgetMs = integer('budget', get('budget'), 10, 3600) * 1000;
  if (get('replicas') !== undefined) options.replicas = integer('replicas', get('replicas'), 1, 5);
  if (get('store') !== undefined) options.store = get('store')!;
  if (get('seed') !== undefined) options.seed = integer('seed', get('seed'), 0, 2 ** 31 - 1);
  options.memoryQueue = values['memory-queue'] === true;
  options.fault = values['fault'] === true;
  options.approvals = values['approvals'] === true;
  options.baseline = values['baseline'] === true;
  if ([options.fault, options.approvals, options.baseline].filter(Boolean).length > 1) {
    throw new UsageError('--fault, --approvals and --baseline are three runs: choose one.');
  }
  if (get('levels') !== undefined) {
    options.levels = get('levels')!
      .split(',')
      .map((level) => integer('levels', level.trim(), 1, 100));
  }
  // The baseline runs every arm at every level, twice: it needs longer than a load run.
  if (options.baseline && get('budget') === undefined) options.budgetMs = 1_200_000;
  if (get('rounds') !== undefined) options.rounds = integer('rounds', get('rounds'), 1, 20);
  options.extras = values['no-extras'] !== true;
  if (get('compare') !== undefined) {
    if (!options.baseline) throw new UsageError('--compare goes with --baseline.');
    options.compare = get('compare')!;
  }
  if (get('cpu-prof') !== undefined) {
    if (!options.baseline) throw new UsageError('--cpu-prof goes with --baseline.');
    options.cpuProf = get('cpu-prof')!;
  }
  options.otel = values['otel'] === true;
  if (options.otel && !options.baseline) throw new UsageError('--otel goes with --baseline.');
  options.json = values['json'] === true;
  return options;
}
