import type { BaselineReport, BaselineRow } from './baseline-run.js';
import { formatMs, formatTable } from './table.js';

/** The titles of the baseline report's tables, in print order. */
export const BASELINE_TABLES = [
  'Upstream alone and through the gateway',
  'Gateway / alone',
  'The gateway without each extra',
] as const;

function ratio(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(2)}×` : '-';
}

function range(values: number[], format: (value: number) => string): string {
  const low = Math.min(...values);
  const high = Math.max(...values);
  return values.length < 2 ? format(low) : `${format(low)} – ${format(high)}`;
}

function rate(value: number): string {
  return Number.isFinite(value) ? value.toFixed(0) : '-';
}

function cpu(ms: number | undefined): string {
  return ms === undefined ? '-' : `${ms.toFixed(2)} ms`;
}

function problems(row: BaselineRow): string {
  const errors = Object.values(row.errors).reduce((sum, count) => sum + count, 0);
  return `${row.wrong} / ${errors}`;
}

/**
 * The baseline report as text tables: each arm per level (pooled p50 and p99, calls/s,
 * each round's calls/s), the ratios, and the gateway without each of its extras.
 *
 * @param report - what {@link runBaseline} measured
 * @returns the tables, then a verdict line
 * @throws nothing
 */
export function formatBaselineReport(report: BaselineReport): string {
  const [arms, ratios, extras] = BASELINE_TABLES;
  const { options } = report;
  const head = `${options.operations} echo calls per session, ${options.rounds} round${options.rounds === 1 ? '' : 's'} per level, interleaved; ${formatMs(report.durationMs)}`;
  const sections = [head];
  sections.push(
    formatTable(
      arms,
      [
        'sessions',
        'arm',
        'calls',
        'p50',
        'p99',
        'calls/s',
        'calls/s by round',
        'CPU/call',
        'wrong / failed',
      ],
      report.rows.map((row) => [
        String(row.sessions),
        row.arm === 'alone'
          ? 'upstream alone (HTTP)'
          : row.arm === 'compare'
            ? 'gateway --compare build'
            : 'gateway (HTTP, stdio upstream)',
        String(row.calls),
        formatMs(row.p50Ms),
        formatMs(row.p99Ms),
        rate(row.callsPerSecond),
        range(
          row.rounds.map((round) => round.callsPerSecond),
          rate,
        ),
        cpu(row.cpuMsPerCall),
        problems(row),
      ]),
    ),
  );
  const compare = report.compareRatios;
  sections.push(
    formatTable(
      ratios,
      [
        'sessions',
        'p50',
        'p99',
        'throughput',
        'CPU/call',
        ...(compare === undefined ? [] : ['--compare p50', 'p99', 'throughput', 'CPU/call']),
      ],
      report.ratios.map((entry, index) => [
        String(entry.sessions),
        ratio(entry.p50),
        ratio(entry.p99),
        ratio(entry.throughput),
        ratio(entry.cpu ?? Number.NaN),
        ...(compare?.[index] === undefined
          ? []
          : [
              ratio(compare[index].p50),
              ratio(compare[index].p99),
              ratio(compare[index].throughput),
              ratio(compare[index].cpu ?? Number.NaN),
            ]),
      ]),
    ),
  );
  const full = report.extras.find((row) => row.arm === 'gateway');
  if (report.extras.length > 0)
    sections.push(
      formatTable(
        `${extras} (${report.extrasLevel} sessions)`,
        ['gateway', 'p50', 'p99', 'calls/s', 'calls/s vs all extras', 'CPU/call', 'wrong / failed'],
        report.extras.map((row) => [
          row.arm === 'gateway' ? 'with every extra' : row.arm,
          formatMs(row.p50Ms),
          formatMs(row.p99Ms),
          rate(row.callsPerSecond),
          full === undefined ? '-' : ratio(row.callsPerSecond / full.callsPerSecond),
          cpu(row.cpuMsPerCall),
          problems(row),
        ]),
      ),
    );
  if (report.cpuProf !== undefined) {
    sections.push(`The gateway's CPU profile (node --cpu-prof) is in ${report.cpuProf}.`);
  }
  const verdict =
    report.failures.length === 0
      ? 'ok: every answer was right on every arm'
      : `FAILED: ${report.failures.join('; ')}`;
  return [...sections, verdict].join('\n\n');
}
