/**
 * `sync:docs [--check]`: rewrites the generated code blocks of the docs from
 * docs/examples (see docs-blocks.ts for the marker format); with `--check`, changes
 * nothing and fails when a block has drifted. Either way it fails on a TSDoc `{@link}` left
 * in a README or guide (GitHub and npm show it literally). CI runs the check (`.ci/run`, "docs").
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { parseArgs } from 'node:util';
import { createCheckReporter, runCheck } from './check-reporter.js';
import {
  docFiles,
  OPEN,
  publishedReadmeProblems,
  syncText,
  tsdocLinkProblems,
} from './docs-blocks.js';
import { repoRoot } from './workspace.js';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { check: { type: 'boolean' } } });
  const root = repoRoot();
  for (const file of docFiles(root)) {
    const name = relative(root, file);
    const text = readFileSync(file, 'utf8');
    let synced: string;
    try {
      synced = syncText(root, file, text);
    } catch (error) {
      reporter.fail(error instanceof Error ? error.message : String(error));
      continue;
    }
    for (const problem of tsdocLinkProblems(text)) reporter.fail(`${name}: ${problem}`);
    if (/^(packages|apps)\/[^/]+\/README\.md$/.test(name)) {
      for (const problem of publishedReadmeProblems(text)) reporter.fail(`${name}: ${problem}`);
    }
    const blocks = synced.split('\n').filter((line) => OPEN.test(line)).length;
    if (synced === text) {
      if (blocks > 0) reporter.pass(`${name}: ${blocks} blocks match their sources`);
    } else if (values.check) {
      reporter.fail(
        `${name}: generated code blocks differ from docs/examples (or an {@includeCode} is left): run \`pnpm --filter @tool-search/scripts run sync:docs\``,
      );
    } else {
      writeFileSync(file, synced);
      reporter.pass(`${name}: ${blocks} blocks written`);
    }
  }
}

const reporter = createCheckReporter('docs sync', { listFailures: true });
void runCheck(reporter, main);
