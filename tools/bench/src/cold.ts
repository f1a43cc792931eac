/**
 * `pnpm bench --cold`: the cost of a cold start (a serverless function's first request):
 * a fresh `node` per run imports the library, builds over the catalog and answers the
 * first search, for ours (`@tool-search/core`, the default ranker) and the peers, at
 * 50, 500 and 10,000 tools, and the AI SDK adapter's first step (`ai-sdk`: import,
 * `withToolSearch`, the first `prepareStep` and `tool_search`). Reports medians and the
 * ratios against minisearch, with the targets for ours: within 3x of minisearch's total
 * at 50 and 500 tools, no slower at 10,000 (the AI SDK row is reported, not held to them).
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCatalog, loadRealTools } from './catalog-data.js';
import { toPeerDocuments } from './peers.js';

const CHILD = fileURLToPath(new URL('./cold-child.mjs', import.meta.url));
const SIZES = [50, 500, 10_000] as const;
const CONTENDERS = ['ours', 'ai-sdk', 'minisearch', 'orama'] as const;
const QUERY = 'create an issue in a github repository';

/** One cold start's times, in ms. */
export interface ColdRun {
  importMs: number;
  buildMs: number;
  firstSearchMs: number;
  totalMs: number;
  answered: number;
}

function coldRun(contender: string, toolsFile: string, documentsFile: string): Promise<ColdRun> {
  return new Promise((resolve, reject) => {
    const child = fork(CHILD, [contender, toolsFile, documentsFile, QUERY], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      execArgv: [],
    });
    let result: ColdRun | undefined;
    child.on('message', (message: { type?: string; result?: ColdRun }) => {
      if (message?.type === 'result') result = message.result;
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      result && code === 0 ? resolve(result) : reject(new Error(`${contender} exited ${code}`)),
    );
  });
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Runs the cold-start benchmark and prints its table.
 *
 * @param dataDir - the data folder (the real tools)
 * @param runs - fresh processes per contender and size (the median is reported)
 * @returns 0 when every target is met, else 1
 */
export async function runColdBench(dataDir: string, runs = 5): Promise<number> {
  const real = loadRealTools(dataDir).tools;
  const dir = mkdtempSync(join(tmpdir(), 'tool-search-cold-'));
  try {
    return await coldTable(real, dir, runs);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function coldTable(
  real: Parameters<typeof buildCatalog>[0],
  dir: string,
  runs: number,
): Promise<number> {
  const lines = [
    `Cold start: a fresh node per run (median of ${runs}); import + build + first search, ms`,
    '',
    '| tools | library | import | build | first search | total | vs minisearch |',
    '| ---: | --- | ---: | ---: | ---: | ---: | ---: |',
  ];
  let met = true;
  for (const size of SIZES) {
    const { tools } = buildCatalog(real, size, 42);
    const toolsFile = join(dir, `tools-${size}.json`);
    const documentsFile = join(dir, `documents-${size}.json`);
    writeFileSync(toolsFile, JSON.stringify(tools));
    writeFileSync(documentsFile, JSON.stringify(toPeerDocuments(tools)));
    const medians = new Map<string, ColdRun>();
    for (const contender of CONTENDERS) {
      const results: ColdRun[] = [];
      for (let run = 0; run < runs; run++) {
        process.stderr.write(`[cold ${size}] ${contender} run ${run + 1}/${runs}\n`);
        results.push(await coldRun(contender, toolsFile, documentsFile));
      }
      const pick = (key: keyof ColdRun) => median(results.map((result) => result[key]));
      medians.set(contender, {
        importMs: pick('importMs'),
        buildMs: pick('buildMs'),
        firstSearchMs: pick('firstSearchMs'),
        totalMs: pick('totalMs'),
        answered: pick('answered'),
      });
    }
    const reference = medians.get('minisearch')!.totalMs;
    for (const [contender, result] of medians) {
      const ratio = result.totalMs / reference;
      lines.push(
        `| ${size} | ${contender} | ${result.importMs.toFixed(1)} | ${result.buildMs.toFixed(1)} | ${result.firstSearchMs.toFixed(1)} | ${result.totalMs.toFixed(1)} | ${ratio.toFixed(2)}x |`,
      );
    }
    const ours = medians.get('ours')!.totalMs / reference;
    const target = size >= 10_000 ? 1 : 3;
    const ok = ours <= target;
    met &&= ok;
    lines.push(
      `|  | target: ours within ${target}x of minisearch | | | | | ${ok ? 'met' : 'NOT met'} |`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  return met ? 0 : 1;
}
