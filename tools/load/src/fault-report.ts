import type { FaultReport } from './fault-run.js';
import { formatTable } from './table.js';

/**
 * The fault report as text tables: what every client got, step by step, and the faults.
 *
 * @param report - what {@link runFault} observed
 * @returns the tables, then a verdict line
 * @throws nothing
 */
export function formatFaultReport(report: FaultReport): string {
  const outcomes = formatTable(
    `What every client got (${report.sessions} sessions; even ones through tool_call, odd ones by name)`,
    ['step', 'outcome', 'count'],
    report.phases.flatMap((phase) =>
      Object.entries(phase.outcomes)
        .sort(([, a], [, b]) => b - a)
        .map(([outcome, count], index) => [index === 0 ? phase.phase : '', outcome, String(count)]),
    ),
  );
  const events = formatTable(
    'The faults',
    ['event', 'detail'],
    report.events.map((event) => [event.event, event.detail]),
  );
  const verdict =
    report.failures.length === 0
      ? 'ok: every call got an outcome'
      : `FAILED: ${report.failures.join('; ')}`;
  return [outcomes, events, verdict].join('\n\n');
}
