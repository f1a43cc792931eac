// The tables of `pnpm eval --programs`: one per task (each arm's round trips, input
// tokens, tool calls, approvals and wall time, with ratios against the program arm), the
// target checks under it, and a summary line.
import { renderTable } from '@tool-search/terminal';
import type { TargetCheck, TaskResult } from './ab.js';
import type { ArmResult } from './runner.js';

const COLUMNS = [
  'arm',
  'round trips',
  'input tokens',
  'o200k',
  'written',
  'tool calls',
  'approvals',
  'wall ms',
  'tokens ÷ program',
  'round trips ÷ program',
] as const;

const thousands = (value: number) => Math.round(value).toLocaleString('en-US');
const times = (value: number) => `${value.toFixed(value >= 10 ? 1 : 2)}×`;
const percent = (value: number) => `${(100 * value).toFixed(1)}%`;

function row(arm: ArmResult, program: ArmResult | undefined): string[] {
  const label = arm.informational ? `${arm.label} (not a target)` : arm.label;
  return [
    label,
    String(arm.roundTrips),
    thousands(arm.inputTokens.core),
    thousands(arm.inputTokens.o200k),
    thousands(arm.writtenTokens.core),
    String(arm.toolCalls),
    String(arm.approvals),
    arm.wallMs.toFixed(1),
    program === undefined ? '–' : times(arm.inputTokens.core / program.inputTokens.core),
    program === undefined ? '–' : times(arm.roundTrips / program.roundTrips),
  ];
}

function checkLine(check: TargetCheck): string {
  return (
    `${check.pass ? 'PASS' : 'FAIL'} ${check.target} (${check.rule}) against '${check.direct}': ` +
    `${percent(check.tokenSaving.core)} fewer input tokens (o200k ${percent(check.tokenSaving.o200k)}), ` +
    `${times(check.roundTripRatio)} fewer round trips`
  );
}

/** The columns: the first `text` ones hold words (left), the rest numbers (right). */
const columnsOf = (headers: readonly string[], text: number) =>
  headers.map((header, index) => ({
    header,
    align: index < text ? ('left' as const) : ('right' as const),
  }));

function summary(results: readonly TaskResult[]): string {
  const checks = results.flatMap((task) => task.checks);
  const agree = results.filter((task) => task.answersAgree).length;
  return (
    `answers equal across arms: ${agree} of ${results.length} tasks; ` +
    `target checks passed: ${checks.filter((check) => check.pass).length} of ${checks.length}`
  );
}

const programOf = (task: TaskResult) =>
  task.arms.find((arm) => arm.kind === 'program' && !arm.informational);

/** One markdown table of every task's arms, the checks as a list under it. */
function markdownReport(results: readonly TaskResult[]): string {
  const rows = results.flatMap((task) =>
    task.arms.map((arm, index) => [
      index === 0 ? `${task.id}${task.answersAgree ? '' : ' (ANSWERS DIFFER)'}` : '',
      ...row(arm, programOf(task)),
    ]),
  );
  const lines = renderTable(columnsOf(['task', ...COLUMNS], 2), rows, { format: 'markdown' });
  lines.push('');
  for (const check of results.flatMap((task) => task.checks)) lines.push(`- ${checkLine(check)}`);
  lines.push('', summary(results));
  return `${lines.join('\n')}\n`;
}

/**
 * The report of every task: in plain text a table per task with its target checks under
 * it; in markdown one table for all, then the checks.
 *
 * @param results - the tasks' results
 * @param format - `text` for the terminal, `markdown` for the guide
 * @returns the report, ending in a newline
 */
export function formatProgramsReport(
  results: readonly TaskResult[],
  format: 'text' | 'markdown' = 'text',
): string {
  if (format === 'markdown') return markdownReport(results);
  const lines: string[] = [];
  for (const task of results) {
    lines.push(
      `${task.id}: ${task.title}${task.answersAgree ? '' : ' — THE ARMS DISAGREE ON THE ANSWER'}`,
    );
    const rows = task.arms.map((arm) => row(arm, programOf(task)));
    lines.push(...renderTable(columnsOf(COLUMNS, 1), rows, { rule: false }));
    for (const check of task.checks) lines.push(`  ${checkLine(check)}`);
    lines.push('');
  }
  lines.push(summary(results));
  return `${lines.join('\n')}\n`;
}
