/**
 * `pnpm load`: the load run (or `--fault`, the fault run, `--approvals`, the
 * approvals run, or `--baseline`, the gateway against the upstream alone) of the real
 * gateway process;
 * prints tables (or JSON with `--json`). Exits 1 when a correctness check failed.
 */

import { formatApprovalsReport } from './approvals-report.js';
import { runApprovals } from './approvals-run.js';
import { formatBaselineReport } from './baseline-report.js';
import { runBaseline } from './baseline-run.js';
import { formatFaultReport } from './fault-report.js';
import { runFault } from './fault-run.js';
import { runLoad } from './load-run.js';
import { type LoadOptions, parseOptions, USAGE, UsageError } from './options.js';
import { formatLoadReport } from './report.js';

async function main(): Promise<number> {
  let options: LoadOptions | 'help';
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n\n${USAGE}\n`);
      return 2;
    }
    throw error;
  }
  if (options === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const log = (line: string) => process.stderr.write(`[load] ${line}\n`);
  if (options.approvals) {
    const report = await runApprovals(options, log);
    process.stdout.write(
      options.json
        ? `${JSON.stringify(report, null, 2)}\n`
        : `\n${formatApprovalsReport(report)}\n`,
    );
    return report.failures.length === 0 ? 0 : 1;
  }
  if (options.baseline) {
    const report = await runBaseline(options, log);
    process.stdout.write(
      options.json ? `${JSON.stringify(report, null, 2)}\n` : `\n${formatBaselineReport(report)}\n`,
    );
    return report.failures.length === 0 ? 0 : 1;
  }
  const report = options.fault ? await runFault(options, log) : await runLoad(options, log);
  if (options.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else if ('phases' in report) process.stdout.write(`\n${formatFaultReport(report)}\n`);
  else process.stdout.write(`\n${formatLoadReport(report)}\n`);
  return report.failures.length === 0 ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
