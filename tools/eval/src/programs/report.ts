// The tables of `pnpm eval --programs`: one per task (each arm's round trips, input
// tokens, tool calls, approvals and wall time, with ratios against the program arm), the
// target checks under it, and a summary line.
import { renderTable } from '@tool-search/terminal';
import type { TaskResult } from './ab.js';
import type { ArmResult } from './runner.js';

const COLUMNS = [
  'arm',
  'round trips',
  'input tokens',
  'o200k',
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
    String(arm.toolCalls),
    String(arm.approvals),
    arm.wallMs.toFixed(1),
    program === undefined ? '–' : times(arm.inputTokens.core / program.inputTokens.core),
    program === undefined ? '–' : times(arm.roundTrips / program.roundTrips),
  ];
}

function checkLines(task: TaskResult): string[] {
  return task.checks.map(
    (check) =>
      `  ${check.pass ? 'PASS' : 'FAIL'} ${check.target} (${check.rule}) against '${check.direct}': ` +
      `${percent(check.tokenSaving.core)} fewer input tokens (o200k ${percent(check.tokenSaving.o200k)}), ` +
      `${times(check.roundTripRatio)} fewer round trips`,
  );
}

/**
 * The tables of every task, in plain text or markdown.
 *
 * @param results - the tasks' results
 * @param format - `text` for the terminal, `markdown` for the guide
 * @returns the report, ending in a newline
 */
export function formatProgramsReport(
  results: readonly TaskResult[],
  format: 'text' | 'markdown' = 'text',
): string {
  const lines: string[] = [];
  for (const task of results) {
    const program = task.arms.find((arm) => arm.kind === 'program' && !arm.informational);
    lines.push(
      `${format === 'markdown' ? '#### ' : ''}${task.id}: ${task.title}` +
        `${task.answersAgree ? '' : ' — THE ARMS DISAGREE ON THE ANSWER'}`,
    );
    if (format === 'markdown') lines.push('');
    const columns = COLUMNS.map((header, index) => ({
      header,
      align: index === 0 ? ('left' as const) : ('right' as const),
    }));
    lines.push(
      ...renderTable(
        columns,
        task.arms.map((arm) => row(arm, program)),
        format === 'markdown' ? { format: 'markdown' } : { rule: false },
      ),
    );
    if (format === 'markdown' && task.checks.length > 0) lines.push('');
    lines.push(...checkLines(task));
    lines.push('');
  }
  const checks = results.flatMap((task) => task.checks);
  const agree = results.filter((task) => task.answersAgree).length;
  lines.push(
    `answers equal across arms: ${agree} of ${results.length} tasks; ` +
      `target checks passed: ${checks.filter((check) => check.pass).length} of ${checks.length}`,
  );
  return `${lines.join('\n')}\n`;
}
