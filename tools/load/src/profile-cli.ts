/**
 * `pnpm --filter @tool-search/load profile <file.cpuprofile>`: the top functions by self
 * time of a CPU profile (`pnpm load --baseline --cpu-prof DIR` writes one), and with
 * `--collapsed FILE` / `--svg FILE` its collapsed stacks and a flame graph.
 */

import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { type CpuProfile, collapsedStacks, topSelfTimes } from './cpu-profile.js';
import { flameGraphSvg } from './flame-svg.js';
import { formatTable } from './table.js';

const USAGE = `Usage: pnpm --filter @tool-search/load profile <file.cpuprofile> [options]

  --top 25           how many functions to list by self time
  --collapsed FILE   write the collapsed stacks (flame graph tools read them)
  --svg FILE         write a flame graph as an SVG
  --title TEXT       the flame graph's title`;

function main(): number {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2).filter((argument) => argument !== '--'),
    allowPositionals: true,
    options: {
      top: { type: 'string' },
      collapsed: { type: 'string' },
      svg: { type: 'string' },
      title: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const file = positionals[0];
  if (values.help === true || file === undefined) {
    process.stderr.write(`${USAGE}\n`);
    return values.help === true ? 0 : 2;
  }
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const top = Number(values.top ?? 25);
  const rows = topSelfTimes(profile, Number.isInteger(top) && top > 0 ? top : 25);
  process.stdout.write(
    `${formatTable(
      `Self time by function (${file}; idle left out)`,
      ['self', 'share', 'function'],
      rows.map((row) => [
        `${row.selfMs.toFixed(0)} ms`,
        `${(row.share * 100).toFixed(1)}%`,
        row.frame,
      ]),
    )}\n`,
  );
  const stacks = collapsedStacks(profile);
  if (values.collapsed !== undefined) writeFileSync(values.collapsed, `${stacks.join('\n')}\n`);
  if (values.svg !== undefined) {
    writeFileSync(values.svg, flameGraphSvg(stacks, values.title ?? `CPU profile: ${file}`));
  }
  return 0;
}

process.exitCode = main();
