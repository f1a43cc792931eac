import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { withinBudget } from './budget.js';
import { gatewayOptionsOf, writeLoadConfig } from './gateway-config.js';
import { childProcesses, type GatewayProcess, isAlive, readRss } from './gateway-process.js';
import { listGroundTruth } from './ground-truth.js';
import type { LoadOptions } from './options.js';
import { textOf } from './outcome.js';
import { createRecorder, type OperationKind, type WriteRecord } from './recorder.js';
import { type ReplicaSet, startGatewayOrReplicas } from './replica-set.js';
import { closeClient, connectClient, REFUSED, runSession } from './session.js';
import { percentile, seededRandom } from './stats.js';

/** The client model's context window the gateway is told: tool search activates for every profile. */

/** One operation kind's numbers. */
export interface OperationStats {
  kind: OperationKind;
  count: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Outcome kind → count (`result` is success). */
  outcomes: Record<string, number>;
}

/** What a load run measured. */
export interface LoadReport {
  options: LoadOptions;
  /** The profiles, their servers, sessions, and whether tool search was active for them. */
  profiles: { name: string; servers: string[]; sessions: number; toolSearch: boolean }[];
  /** Wall time of the sessions, connect to close. */
  durationMs: number;
  /** Requests made (a write and its read-back are two). */
  requests: number;
  /** Requests per second over the run. */
  throughput: number;
  operations: OperationStats[];
  /** Requests that did not answer a result, by operation and outcome. */
  errors: { kind: OperationKind; outcome: string; count: number }[];
  writes: {
    attempted: number;
    acknowledged: number;
    /** Per server: writes attempted, acknowledged, and lost. */
    byServer: {
      server: 'filesystem' | 'memory';
      attempted: number;
      acknowledged: number;
      lost: number;
    }[];
    /** Acknowledged, but the read-back or the final check did not find them. */
    lost: { filesystem: number; memory: number };
    examples: string[];
    /** Sessions that wrote to the memory graph, and whether a per-upstream queue held them. */
    memoryWriters: number;
    memoryQueue: boolean;
  };
  leaks: { count: number; examples: string[] };
  wrongAnswers: { count: number; examples: string[] };
  malformed: { count: number; examples: string[] };
  gateway: {
    upstreams: number;
    rssBeforeBytes?: number;
    rssPeakBytes?: number;
    rssAfterBytes?: number;
    /** Upstream processes still alive after the gateway stopped. */
    orphans: number;
  };
  /** Correctness failures that make the run fail (never a time). */
  failures: string[];
}

/** The order of the latency table. */
const KIND_ORDER: OperationKind[] = [
  'tools/list',
  'tool_search',
  'tool_describe',
  'call via tool_call',
  'call direct',
  'write',
  'read-back',
  'cross-profile probe',
];

function statsOf(
  latencies: Map<OperationKind, number[]>,
  outcomes: Map<OperationKind, Record<string, number>>,
): OperationStats[] {
  const entries = [...latencies.entries()].sort(
    ([a], [b]) => KIND_ORDER.indexOf(a) - KIND_ORDER.indexOf(b),
  );
  return entries.map(([kind, samples]) => {
    const sorted = [...samples].sort((a, b) => a - b);
    return {
      kind,
      count: sorted.length,
      p50Ms: percentile(sorted, 50),
      p99Ms: percentile(sorted, 99),
      maxMs: sorted[sorted.length - 1] ?? Number.NaN,
      outcomes: outcomes.get(kind) ?? {},
    };
  });
}

/** Checks every acknowledged write once more at the end: files on disk, entities in the graph. */
async function finalCheck(
  writes: WriteRecord[],
  url: string,
  adminToken: string,
  timeoutMs: number,
): Promise<void> {
  const memoryWrites = writes.filter((write) => write.server === 'memory' && write.acknowledged);
  let graph = '';
  if (memoryWrites.length > 0) {
    const client = await connectClient(url, adminToken, timeoutMs);
    try {
      const result = (await client.callTool({ name: 'read_graph', arguments: {} }, undefined, {
        timeout: timeoutMs,
      })) as CallToolResult;
      graph = textOf(result);
    } finally {
      await closeClient(client);
    }
  }
  for (const write of writes) {
    if (!write.acknowledged || !write.readBack) continue;
    if (write.server === 'filesystem') {
      let text = '';
      try {
        text = readFileSync(write.key, 'utf8');
      } catch {
        // Missing: lost.
      }
      write.readBack = text === write.value;
    } else {
      write.readBack = graph.includes(write.value);
    }
  }
}

/**
 * A load run: starts the real gateway process in front of real upstream servers, opens
 * `sessions` concurrent MCP sessions over real HTTP (profiles in turn), each doing
 * `operations` mixed operations, then checks every write once more and reports.
 *
 * @param options - see {@link LoadOptions}
 * @param log - progress lines (to stderr in the CLI)
 * @returns the report; `failures` lists leaks, lost writes, wrong or malformed answers
 * @throws `Error` when the gateway cannot start or the run passes its budget
 */
export async function runLoad(
  options: LoadOptions,
  log: (line: string) => void = () => {},
): Promise<LoadReport> {
  const folder = mkdtempSync(join(tmpdir(), 'tool-search-load-'));
  let gateway: GatewayProcess | undefined;
  let replicaSet: ReplicaSet | undefined;
  let sampler: NodeJS.Timeout | undefined;
  try {
    const config = writeLoadConfig(folder, {
      profiles: options.profiles,
      hang: false,
      memoryQueue: options.memoryQueue,
    });
    log('listing the upstream tools directly (the truth of the leak check)');
    const truth = await listGroundTruth(config.servers, 30_000);
    ({ gateway, replicaSet } = await startGatewayOrReplicas(
      options,
      gatewayOptionsOf(config),
      log,
    ));
    const pid = gateway.pid;
    const upstreams = (replicaSet?.replicas ?? [gateway]).flatMap((each) =>
      childProcesses(each.pid),
    );
    const rssBeforeBytes = readRss(pid);
    let rssPeakBytes = rssBeforeBytes;
    sampler = setInterval(() => {
      const rss = readRss(pid);
      if (rss !== undefined) rssPeakBytes = Math.max(rssPeakBytes ?? 0, rss);
    }, 100);

    const recorder = createRecorder();
    let writersLeft = options.memoryWriters;
    const contexts = Array.from({ length: options.sessions }, (_, index) => {
      const profile = config.profiles[index % config.profiles.length]!;
      const memoryWriter = profile.servers.includes('memory') && writersLeft > 0;
      if (memoryWriter) writersLeft -= 1;
      return {
        url: gateway!.url,
        index,
        profile,
        memoryWriter,
        workspace: config.workspace,
        truth,
        requestTimeoutMs: options.requestTimeoutMs,
        random: seededRandom(options.seed * 7919 + index),
        recorder,
      };
    });
    log(`${options.sessions} sessions × ${options.operations} operations on ${gateway.url}`);
    const began = performance.now();
    await withinBudget(
      Promise.all(contexts.map((context) => runSession(context, options.operations))),
      options.budgetMs,
    );
    const durationMs = performance.now() - began;
    log('checking every write once more');
    await finalCheck(recorder.writes, gateway.url, config.adminToken, options.requestTimeoutMs);
    clearInterval(sampler);
    const rssAfterBytes = readRss(pid);
    await gateway.stop();
    // The gateway closes its upstreams on the way out; give them a moment.
    const deadline = Date.now() + 5_000;
    while (upstreams.some((child) => isAlive(child.pid)) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const orphans = upstreams.filter((child) => isAlive(child.pid));
    for (const orphan of orphans) process.kill(orphan.pid, 'SIGKILL');

    const operations = statsOf(recorder.latencies, recorder.outcomes);
    const requests = operations.reduce((sum, stats) => sum + stats.count, 0);
    const errors = operations.flatMap((stats) =>
      Object.entries(stats.outcomes)
        .filter(([outcome]) => outcome !== 'result' && outcome !== REFUSED)
        .map(([outcome, count]) => ({ kind: stats.kind, outcome, count })),
    );
    const lostWrites = recorder.writes.filter((write) => write.acknowledged && !write.readBack);
    const report: LoadReport = {
      options,
      profiles: config.profiles.map((profile) => ({
        name: profile.name,
        servers: profile.servers,
        sessions: contexts.filter((context) => context.profile === profile).length,
        toolSearch: recorder.searchActive.get(profile.name) ?? false,
      })),
      durationMs,
      requests,
      throughput: requests / (durationMs / 1000),
      operations,
      errors,
      writes: {
        attempted: recorder.writes.length,
        acknowledged: recorder.writes.filter((write) => write.acknowledged).length,
        byServer: (['filesystem', 'memory'] as const).map((server) => {
          const writes = recorder.writes.filter((write) => write.server === server);
          return {
            server,
            attempted: writes.length,
            acknowledged: writes.filter((write) => write.acknowledged).length,
            lost: lostWrites.filter((write) => write.server === server).length,
          };
        }),
        lost: {
          filesystem: lostWrites.filter((write) => write.server === 'filesystem').length,
          memory: lostWrites.filter((write) => write.server === 'memory').length,
        },
        examples: lostWrites.slice(0, 5).map((write) => `${write.server} ${write.key}`),
        memoryWriters: contexts.filter((context) => context.memoryWriter).length,
        memoryQueue: options.memoryQueue,
      },
      leaks: { count: recorder.leaks.length, examples: recorder.leaks.slice(0, 5) },
      wrongAnswers: {
        count: recorder.wrongAnswers.length,
        examples: recorder.wrongAnswers.slice(0, 5),
      },
      malformed: { count: recorder.malformed.length, examples: recorder.malformed.slice(0, 5) },
      gateway: {
        upstreams: upstreams.length,
        ...(rssBeforeBytes === undefined ? {} : { rssBeforeBytes }),
        ...(rssPeakBytes === undefined ? {} : { rssPeakBytes }),
        ...(rssAfterBytes === undefined ? {} : { rssAfterBytes }),
        orphans: orphans.length,
      },
      failures: [],
    };
    const failures = report.failures;
    if (report.leaks.count > 0) failures.push(`${report.leaks.count} cross-profile leaks`);
    if (lostWrites.length > 0) failures.push(`${lostWrites.length} writes lost`);
    if (report.wrongAnswers.count > 0) failures.push(`${report.wrongAnswers.count} wrong answers`);
    if (report.malformed.count > 0) failures.push(`${report.malformed.count} malformed answers`);
    if (orphans.length > 0)
      failures.push(`${orphans.length} upstream processes outlived the gateway`);
    const profilesWithoutSearch = report.profiles.filter((profile) => !profile.toolSearch);
    if (profilesWithoutSearch.length > 0) {
      failures.push(
        `tool search was not active for ${profilesWithoutSearch.map((profile) => profile.name).join(', ')}`,
      );
    }
    return report;
  } finally {
    clearInterval(sampler);
    await gateway?.stop().catch(() => {});
    rmSync(folder, { recursive: true, force: true });
  }
}
