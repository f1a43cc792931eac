import type { LoadReport } from './load-run.js';
import { REFUSED } from './session.js';
import { formatMb, formatMs, formatTable } from './table.js';

/** The titles of the load report's tables, in print order. */
export const LOAD_TABLES = [
  'Profiles',
  'Throughput',
  'Latency by operation',
  'Errors by kind',
  'Correctness',
  'Gateway memory (VmRSS)',
] as const;

/**
 * The load report as text tables.
 *
 * @param report - what {@link runLoad} measured
 * @returns the tables, then a verdict line
 * @throws nothing
 */
export function formatLoadReport(report: LoadReport): string {
  const { options } = report;
  const [profiles, throughput, latency, errors, correctness, memory] = LOAD_TABLES;
  const sections: string[] = [];
  sections.push(
    formatTable(
      profiles,
      ['profile', 'toolsets', 'sessions', 'tool search'],
      report.profiles.map((profile) => [
        profile.name,
        profile.servers.map((server) => `mcp-${server}`).join(', '),
        String(profile.sessions),
        profile.toolSearch ? 'active' : 'not active',
      ]),
    ),
  );
  sections.push(
    formatTable(
      throughput,
      ['replicas', 'sessions', 'operations', 'requests', 'wall time', 'requests/s'],
      [
        [
          options.replicas > 1 ? `${options.replicas} (Redis, nginx)` : '1',
          String(options.sessions),
          `${options.sessions} × ${options.operations}`,
          String(report.requests),
          formatMs(report.durationMs),
          report.throughput.toFixed(1),
        ],
      ],
    ),
  );
  sections.push(
    formatTable(
      latency,
      ['operation', 'count', 'p50', 'p99', 'max', 'errors'],
      report.operations.map((stats) => [
        stats.kind,
        String(stats.count),
        formatMs(stats.p50Ms),
        formatMs(stats.p99Ms),
        formatMs(stats.maxMs),
        String(stats.count - (stats.outcomes['result'] ?? 0) - (stats.outcomes[REFUSED] ?? 0)),
      ]),
    ),
  );
  sections.push(
    formatTable(
      errors,
      ['operation', 'outcome', 'count'],
      report.errors.length === 0
        ? [['(none)', '', '0']]
        : report.errors.map((error) => [error.kind, error.outcome, String(error.count)]),
    ),
  );
  const { writes } = report;
  const writers = (server: 'filesystem' | 'memory') =>
    server === 'memory'
      ? `${writes.memoryWriters}${writes.memoryQueue ? ' (queued)' : ''}`
      : String(
          report.profiles
            .filter((profile) => profile.servers.includes('filesystem'))
            .reduce((sum, profile) => sum + profile.sessions, 0),
        );
  sections.push(
    formatTable(
      correctness,
      ['check', 'writers', 'attempted', 'acknowledged', 'lost'],
      [
        ...writes.byServer.map((entry) => [
          `writes to ${entry.server}`,
          writers(entry.server),
          String(entry.attempted),
          String(entry.acknowledged),
          String(entry.lost),
        ]),
        ['cross-profile leaks', '', '', '', String(report.leaks.count)],
        ['wrong answers', '', '', '', String(report.wrongAnswers.count)],
        ['malformed answers', '', '', '', String(report.malformed.count)],
      ],
    ),
  );
  if (writes.memoryWriters > 1 && !writes.memoryQueue && writes.lost.memory > 0) {
    sections.push(
      `The memory writes were lost by server-memory itself: it rewrites its whole file on every write, so concurrent writers overwrite each other (--memory-queue holds them in line).`,
    );
  }
  sections.push(
    formatTable(
      memory,
      ['before', 'peak', 'after', 'upstream processes', 'left running after stop'],
      [
        [
          formatMb(report.gateway.rssBeforeBytes),
          formatMb(report.gateway.rssPeakBytes),
          formatMb(report.gateway.rssAfterBytes),
          String(report.gateway.upstreams),
          String(report.gateway.orphans),
        ],
      ],
    ),
  );
  const examples = [
    ...report.leaks.examples.map((example) => `leak: ${example}`),
    ...writes.examples.map((example) => `lost: ${example}`),
    ...report.wrongAnswers.examples.map((example) => `wrong: ${example}`),
    ...report.malformed.examples.map((example) => `malformed: ${example}`),
  ];
  const verdict =
    report.failures.length === 0
      ? 'ok: no leaks, no lost writes, no wrong answers'
      : `FAILED: ${report.failures.join('; ')}`;
  return [...sections, ...(examples.length > 0 ? [examples.join('\n')] : []), verdict].join('\n\n');
}
