import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  type AloneUpstream,
  GATEWAY_EXTRAS,
  type GatewayExtra,
  LOAD_WITHOUT_ENV,
  startAloneUpstream,
  writeBaselineConfig,
} from './baseline-arms.js';
import { withinBudget } from './budget.js';
import { LOAD_CONTEXT_WINDOW } from './gateway-config.js';
import { childProcesses, type GatewayProcess, readCpuMs, startGateway } from './gateway-process.js';
import type { LoadOptions } from './options.js';
import { startOtelSink } from './otel-sink.js';
import { errorKind, resultKind, textOf } from './outcome.js';
import { closeClient, connectClient } from './session.js';
import { percentile } from './stats.js';

/** One arm of a baseline run: the upstream alone, the gateway, or the gateway without an extra. */
export type BaselineArm = 'alone' | 'gateway' | 'compare' | `without ${GatewayExtra}`;

/** One arm at one level, its rounds pooled. */
export interface BaselineRow {
  arm: BaselineArm;
  sessions: number;
  /** Calls made (sessions × operations × rounds). */
  calls: number;
  p50Ms: number;
  p99Ms: number;
  /** Calls answered per second of wall time, the rounds' walls summed. */
  callsPerSecond: number;
  /**
   * CPU time (user and system) of the arm's server processes per call, while the calls
   * ran: the upstream alone, or the gateway and its upstream. Not hurt by a busy
   * machine the way times are; absent where `/proc` is missing.
   */
  cpuMsPerCall?: number;
  /** Each round's own numbers, to show the spread. */
  rounds: { p50Ms: number; p99Ms: number; callsPerSecond: number }[];
  /** Answers that were not `Echo: <the message sent>`. */
  wrong: number;
  /** Calls that failed (an error result, a JSON-RPC error, a timeout), by outcome. */
  errors: Record<string, number>;
}

/** The gateway over the upstream alone at one level. */
export interface BaselineRatio {
  sessions: number;
  p50: number;
  p99: number;
  throughput: number;
  /** CPU per call, when both were measured. */
  cpu?: number;
}

/** What a baseline run measured. */
export interface BaselineReport {
  options: LoadOptions;
  /** The alone and gateway arms at every level. */
  rows: BaselineRow[];
  /** Gateway / alone, per level. */
  ratios: BaselineRatio[];
  /** The `--compare` gateway / alone, per level, when there is one. */
  compareRatios?: BaselineRatio[];
  /** The level the extras were measured at. */
  extrasLevel: number;
  /** The gateway with every extra and with each switched off, at {@link extrasLevel}. */
  extras: BaselineRow[];
  /** The CPU profile folder, when the gateway ran under `--cpu-prof`. */
  cpuProf?: string;
  durationMs: number;
  /** Correctness failures that make the run fail (never a time). */
  failures: string[];
}

/** One round of one arm at one level. */
interface Sample {
  latencies: number[];
  wallMs: number;
  /** CPU time of the server processes during the calls, when readable. */
  cpuMs?: number;
  wrong: number;
  errors: Record<string, number>;
}

/** Where an arm is served, and how its sessions authenticate. */
interface Endpoint {
  url: string;
  token: string;
  /** The server processes whose CPU time counts (the gateway's upstreams too). */
  pids: () => number[];
}

/** The CPU time the processes have used so far; undefined when one cannot be read. */
function cpuOf(pids: number[]): number | undefined {
  let total = 0;
  for (const pid of pids) {
    const ms = readCpuMs(pid);
    if (ms === undefined) return undefined;
    total += ms;
  }
  return total;
}

/** One session's calls: `echo` of unique messages, one after the other, each checked. */
async function echoCalls(
  client: Client,
  tag: string,
  operations: number,
  timeoutMs: number,
  sample: Sample,
): Promise<void> {
  for (let index = 0; index < operations; index += 1) {
    const message = `${tag}-${index}-${randomBytes(6).toString('hex')}`;
    const began = performance.now();
    let outcome: string;
    try {
      const result = (await client.callTool({ name: 'echo', arguments: { message } }, undefined, {
        timeout: timeoutMs,
      })) as CallToolResult;
      outcome = resultKind(result);
      if (outcome === 'result' && textOf(result) !== `Echo: ${message}`) sample.wrong += 1;
    } catch (error) {
      outcome = errorKind(error);
    }
    sample.latencies.push(performance.now() - began);
    if (outcome !== 'result') sample.errors[outcome] = (sample.errors[outcome] ?? 0) + 1;
  }
}

/** Opens `sessions` sessions (not timed), times their calls, closes them (not timed). */
async function runSample(
  endpoint: Endpoint,
  sessions: number,
  operations: number,
  timeoutMs: number,
): Promise<Sample> {
  const sample: Sample = { latencies: [], wallMs: 0, wrong: 0, errors: {} };
  const clients = await Promise.all(
    Array.from({ length: sessions }, () => connectClient(endpoint.url, endpoint.token, timeoutMs)),
  );
  try {
    const pids = endpoint.pids();
    const cpuBefore = cpuOf(pids);
    const began = performance.now();
    await Promise.all(
      clients.map((client, index) => echoCalls(client, `s${index}`, operations, timeoutMs, sample)),
    );
    sample.wallMs = performance.now() - began;
    const cpuAfter = cpuOf(pids);
    if (cpuBefore !== undefined && cpuAfter !== undefined) sample.cpuMs = cpuAfter - cpuBefore;
  } finally {
    await Promise.all(clients.map(closeClient));
  }
  return sample;
}

function rowOf(arm: BaselineArm, sessions: number, samples: Sample[]): BaselineRow {
  const all = samples.flatMap((sample) => sample.latencies).sort((a, b) => a - b);
  const wallMs = samples.reduce((sum, sample) => sum + sample.wallMs, 0);
  const errors: Record<string, number> = {};
  for (const sample of samples) {
    for (const [kind, count] of Object.entries(sample.errors)) {
      errors[kind] = (errors[kind] ?? 0) + count;
    }
  }
  const cpuMs = samples.every((sample) => sample.cpuMs !== undefined)
    ? samples.reduce((sum, sample) => sum + sample.cpuMs!, 0)
    : undefined;
  return {
    arm,
    sessions,
    calls: all.length,
    ...(cpuMs === undefined ? {} : { cpuMsPerCall: cpuMs / all.length }),
    p50Ms: percentile(all, 50),
    p99Ms: percentile(all, 99),
    callsPerSecond: all.length / (wallMs / 1000),
    rounds: samples.map((sample) => {
      const sorted = [...sample.latencies].sort((a, b) => a - b);
      return {
        p50Ms: percentile(sorted, 50),
        p99Ms: percentile(sorted, 99),
        callsPerSecond: sorted.length / (sample.wallMs / 1000),
      };
    }),
    wrong: samples.reduce((sum, sample) => sum + sample.wrong, 0),
    errors,
  };
}

/**
 * Runs every arm at one level, `rounds` times, interleaved (the order turns each round,
 * so that neither arm always goes first): machine noise hits all of them alike.
 */
async function runLevel(
  arms: [BaselineArm, Endpoint][],
  sessions: number,
  options: LoadOptions,
  log: (line: string) => void,
): Promise<BaselineRow[]> {
  const samples = new Map<BaselineArm, Sample[]>(arms.map(([arm]) => [arm, []]));
  for (let round = 0; round < options.rounds; round += 1) {
    const order = round % 2 === 0 ? arms : [...arms].reverse();
    for (const [arm, endpoint] of order) {
      log(`${sessions} sessions × ${options.operations} echo calls: ${arm} (round ${round + 1})`);
      const sample = await runSample(
        endpoint,
        sessions,
        options.operations,
        options.requestTimeoutMs,
      );
      samples.get(arm)!.push(sample);
    }
  }
  const rows = arms.map(([arm]) => rowOf(arm, sessions, samples.get(arm)!));
  for (const row of rows) {
    log(
      `  ${row.arm} at ${sessions}: p50 ${row.p50Ms.toFixed(1)} ms, p99 ${row.p99Ms.toFixed(1)} ms, ${row.callsPerSecond.toFixed(0)} calls/s, ${row.cpuMsPerCall?.toFixed(2) ?? '-'} CPU ms/call`,
    );
  }
  return rows;
}

/** The running processes of a baseline run. */
interface Arms {
  alone: AloneUpstream;
  gateways: Map<GatewayKey, GatewayProcess>;
}

/** The gateway processes of a run: the gateway, the `--compare` build, one per extra off. */
type GatewayKey = 'gateway' | 'compare' | GatewayExtra;

async function startArms(folder: string, options: LoadOptions, token: string): Promise<Arms> {
  const gateways = new Map<GatewayKey, GatewayProcess>();
  const otel = options.otel ? await startOtelSink() : undefined;
  const start = (without?: GatewayExtra, cli?: string) =>
    startGateway({
      ...(cli === undefined ? {} : { cli }),
      config: writeBaselineConfig(folder, without),
      token,
      contextWindow: LOAD_CONTEXT_WINDOW,
      timeoutMs: 60_000,
      ...(without === 'audit' ? { env: { [LOAD_WITHOUT_ENV]: 'audit' } } : {}),
      ...(otel !== undefined && without === undefined && cli === undefined
        ? { env: otel.env }
        : {}),
      ...(without === undefined && cli === undefined && options.cpuProf !== undefined
        ? { nodeArgs: ['--cpu-prof', '--cpu-prof-dir', options.cpuProf] }
        : {}),
    });
  const alone = await startAloneUpstream(30_000);
  try {
    gateways.set('gateway', await start());
    if (options.compare !== undefined) {
      gateways.set('compare', await start(undefined, resolve(options.compare)));
    }
    for (const extra of options.extras ? GATEWAY_EXTRAS : []) {
      gateways.set(extra, await start(extra));
    }
  } catch (error) {
    await alone.stop();
    await Promise.all([...gateways.values()].map((gateway) => gateway.stop()));
    throw error;
  }
  return { alone, gateways };
}

function ratioOf(alone: BaselineRow, gateway: BaselineRow): BaselineRatio {
  return {
    sessions: alone.sessions,
    p50: gateway.p50Ms / alone.p50Ms,
    p99: gateway.p99Ms / alone.p99Ms,
    throughput: gateway.callsPerSecond / alone.callsPerSecond,
    ...(gateway.cpuMsPerCall === undefined || alone.cpuMsPerCall === undefined
      ? {}
      : { cpu: gateway.cpuMsPerCall / alone.cpuMsPerCall }),
  };
}

function failuresOf(rows: BaselineRow[]): string[] {
  const failures: string[] = [];
  for (const row of rows) {
    const where = `${row.arm} at ${row.sessions} sessions`;
    if (row.wrong > 0) failures.push(`${where}: ${row.wrong} wrong answers`);
    const errors = Object.values(row.errors).reduce((sum, count) => sum + count, 0);
    if (errors > 0) failures.push(`${where}: ${errors} calls failed`);
  }
  return failures;
}

/** Where each arm of a started run is served. */
interface ArmEndpoints {
  alone: Endpoint;
  of(key: GatewayKey): Endpoint;
  keys: GatewayKey[];
}

function endpointsOf(arms: Arms, token: string): ArmEndpoints {
  const { alone } = arms;
  return {
    alone: { url: alone.url, token, pids: () => [alone.pid] },
    of(key) {
      const gateway = arms.gateways.get(key)!;
      return {
        url: gateway.url,
        token,
        pids: () => [gateway.pid, ...childProcesses(gateway.pid).map((child) => child.pid)],
      };
    },
    keys: [...arms.gateways.keys()],
  };
}

/** The alone, gateway (and `--compare`) arms at every level, after a warm-up of every arm. */
async function measureLevels(
  endpoints: ArmEndpoints,
  options: LoadOptions,
  log: (line: string) => void,
): Promise<BaselineRow[]> {
  // Warm-up, not recorded: JIT, connections, the upstreams' first calls.
  for (const endpoint of [endpoints.alone, ...endpoints.keys.map(endpoints.of)]) {
    await runSample(endpoint, 2, 10, options.requestTimeoutMs);
  }
  const arms: [BaselineArm, Endpoint][] = [
    ['alone', endpoints.alone],
    ['gateway', endpoints.of('gateway')],
    ...(options.compare === undefined
      ? []
      : [['compare', endpoints.of('compare')] as [BaselineArm, Endpoint]]),
  ];
  const rows: BaselineRow[] = [];
  for (const sessions of options.levels)
    rows.push(...(await runLevel(arms, sessions, options, log)));
  return rows;
}

/** The level of the extras' rows: 50, or the largest level below, or the first. */
function extrasLevelOf(levels: readonly number[]): number {
  if (levels.includes(50)) return 50;
  return Math.max(...levels.filter((level) => level <= 50), levels[0]!);
}

/** The gateway with every extra, and with each switched off in turn, at one level. */
async function measureExtras(
  endpoints: ArmEndpoints,
  level: number,
  options: LoadOptions,
  log: (line: string) => void,
): Promise<BaselineRow[]> {
  // The gateway has served every level by now: the others catch up first (JIT, heap),
  // unrecorded, with as many calls at every level as it served, so that each row
  // measures its extra and not a process that is less warm (one sample was not enough:
  // every row without an extra came out slower than the gateway with all of them).
  for (const extra of GATEWAY_EXTRAS) {
    for (const sessions of options.levels) {
      for (let round = 0; round < options.rounds; round++) {
        await runSample(
          endpoints.of(extra),
          sessions,
          options.operations,
          options.requestTimeoutMs,
        );
      }
    }
  }
  const arms: [BaselineArm, Endpoint][] = [
    ['gateway', endpoints.of('gateway')],
    ...GATEWAY_EXTRAS.map((extra): [BaselineArm, Endpoint] => [
      `without ${extra}`,
      endpoints.of(extra),
    ]),
  ];
  return runLevel(arms, level, options, log);
}

/** The report of a run's rows: the ratios per level, and the failures (never a time). */
function reportOf(
  options: LoadOptions,
  measured: { rows: BaselineRow[]; extras: BaselineRow[]; extrasLevel: number },
  durationMs: number,
  cpuProf: string | undefined,
): BaselineReport {
  const { rows, extras, extrasLevel } = measured;
  const ratiosOf = (arm: BaselineArm) =>
    options.levels.map((sessions) => {
      const at = (which: BaselineArm) =>
        rows.find((row) => row.arm === which && row.sessions === sessions)!;
      return ratioOf(at('alone'), at(arm));
    });
  return {
    options,
    rows,
    ratios: ratiosOf('gateway'),
    ...(options.compare === undefined ? {} : { compareRatios: ratiosOf('compare') }),
    extrasLevel,
    extras,
    ...(cpuProf === undefined ? {} : { cpuProf }),
    durationMs,
    // The --compare build is another gateway's: its failures are shown, not ours to fail.
    failures: failuresOf([...rows.filter((row) => row.arm !== 'compare'), ...extras]),
  };
}

/**
 * The baseline run: `echo` of `server-everything` served over Streamable HTTP on its
 * own, against the same server behind the gateway over HTTP (stdio to it), with the
 * same SDK client, sessions and calls, interleaved round by round at each level; then
 * the gateway with each of its extras switched off in turn, at 50 sessions (or the
 * largest level below). Only correctness fails it, never a time.
 *
 * @param options - `levels`, `rounds`, `operations` (calls per session and round),
 * `requestTimeoutMs`, `budgetMs`, `extras`, `compare`, `cpuProf`
 * @param log - progress lines (to stderr in the CLI)
 * @returns the report; `failures` lists wrong answers and failed calls
 * @throws `Error` when an arm cannot start or the run passes its budget
 */
export async function runBaseline(
  options: LoadOptions,
  log: (line: string) => void = () => {},
): Promise<BaselineReport> {
  const folder = mkdtempSync(resolve(tmpdir(), 'tool-search-baseline-'));
  const token = `baseline-${randomBytes(12).toString('hex')}`;
  const cpuProf = options.cpuProf === undefined ? undefined : resolve(options.cpuProf);
  if (cpuProf !== undefined) mkdirSync(cpuProf, { recursive: true });
  let arms: Arms | undefined;
  try {
    log('starting server-everything over HTTP and the gateways (stdio to it)');
    arms = await startArms(folder, { ...options, ...(cpuProf ? { cpuProf } : {}) }, token);
    const endpoints = endpointsOf(arms, token);
    const extrasLevel = extrasLevelOf(options.levels);
    const began = performance.now();
    const measure = async () => ({
      rows: await measureLevels(endpoints, options, log),
      extras: options.extras ? await measureExtras(endpoints, extrasLevel, options, log) : [],
      extrasLevel,
    });
    const measured = await withinBudget(measure(), options.budgetMs);
    return reportOf(options, measured, performance.now() - began, cpuProf);
  } finally {
    await arms?.alone.stop();
    // The gateway writes its CPU profile as it exits (SIGTERM, then its own exit).
    await Promise.all([...(arms?.gateways.values() ?? [])].map((gateway) => gateway.stop(15_000)));
    rmSync(folder, { recursive: true, force: true });
  }
}
