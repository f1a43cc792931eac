import type { ApprovalsReport } from './approvals-run.js';
import { formatMs, formatTable } from './table.js';

/** The titles of the approvals report's tables, in print order. */
export const APPROVALS_TABLES = ['Approval answers', 'Calls by replica (audit trail)'] as const;

/**
 * The approvals report as text tables: questions asked, answered, crossed and lost by
 * the decision the client gave, then how the calls spread over the replicas.
 *
 * @param report - what {@link runApprovals} measured
 * @returns the tables, then a verdict line
 * @throws nothing
 */
export function formatApprovalsReport(report: ApprovalsReport): string {
  const { options } = report;
  const [answers, byReplica] = APPROVALS_TABLES;
  const where =
    options.replicas > 1 ? `${options.replicas} replicas (Redis, nginx)` : 'one gateway process';
  const sections: string[] = [
    `${options.sessions} sessions × ${options.operations} calls needing approval, two at a time, on ${where}; ${formatMs(report.durationMs)}`,
    formatTable(
      answers,
      ['answer', 'calls', 'asked', 'answered', 'crossed', 'lost'],
      report.rows.map((row) => [
        row.decision === 'allow' ? 'allow-once' : row.decision,
        String(row.calls),
        String(row.asked),
        String(row.answered),
        String(row.crossed),
        String(row.lost),
      ]),
    ),
  ];
  if (report.replicas !== undefined) {
    sections.push(
      formatTable(
        byReplica,
        ['replica', 'calls'],
        report.replicas.map((entry) => [entry.replica, String(entry.calls)]),
      ) +
        `\nsessions whose calls landed on more than one replica: ${report.sessionsOnSeveralReplicas ?? 0} of ${options.sessions}`,
    );
  }
  if (report.strayQuestions > 0 || report.refusedAnswers > 0) {
    sections.push(
      `stray questions: ${report.strayQuestions}; answers refused by the gateway: ${report.refusedAnswers}`,
    );
  }
  if (report.examples.length > 0) sections.push(['examples:', ...report.examples].join('\n  '));
  sections.push(
    report.failures.length === 0
      ? 'ok: every answer reached its own call (0 crossed, 0 lost)'
      : `FAILED: ${report.failures.join('; ')}`,
  );
  return sections.join('\n\n');
}
