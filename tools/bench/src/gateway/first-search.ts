/**
 * `pnpm bench --gateway`: the first `tool_search` of a fresh gateway against the next
 * ones. Each run starts a gateway process (`serve.ts`: loopback HTTP in front of 397
 * recorded tool definitions), connects the MCP SDK client over Streamable HTTP, lists
 * the tools, then times one search after another. Reported: the first search, the median
 * of the next `follow` searches and their ratio (the target: at most 2×), with the
 * gateway's warm-up on and, for comparison, off.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { percentile } from '../measure.js';
import { BENCH_QUERIES } from '../queries.js';
import { formatDuration, formatRatio } from '../report.js';

const SERVE = fileURLToPath(new URL('./serve.ts', import.meta.url));

/** The target of the issue: the first search costs at most twice the median of the next. */
export const FIRST_SEARCH_TARGET_RATIO = 2;

/** One run's numbers. */
export interface FirstSearchRun {
  warmUp: boolean;
  /** The first search of the gateway's first session, in milliseconds. */
  firstMs: number;
  /** The median of the searches after it. */
  medianMs: number;
  /** `firstMs / medianMs`. */
  ratio: number;
  /** How long the gateway's warm-up took (in the background, before the client came). */
  warmUpMs?: number;
}

interface Served {
  url: string;
  token: string;
  report?: { durationMs: number };
}

/** Starts a gateway process and reads the line it prints once it is ready. */
async function serve(warmUp: boolean) {
  const child = spawn(
    process.execPath,
    ['--import', import.meta.resolve('tsx'), SERVE, ...(warmUp ? [] : ['--no-warm-up'])],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout! });
  const served = await new Promise<Served>((resolve, reject) => {
    lines.once('line', (line) => resolve(JSON.parse(line) as Served));
    child.once('exit', (code) => reject(new Error(`the gateway exited with code ${code}`)));
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.stdin!.end();
    });
  return { served, stop };
}

async function timed(client: Client, query: string): Promise<number> {
  const began = performance.now();
  const result = await client.callTool({ name: 'tool_search', arguments: { query } });
  const ms = performance.now() - began;
  if (result.isError === true) throw new Error(`tool_search '${query}' answered an error`);
  return ms;
}

/**
 * One fresh gateway and one session: the first search, then `follow` more.
 *
 * @throws when the gateway does not start or a search fails
 */
export async function runFirstSearch(warmUp: boolean, follow: number): Promise<FirstSearchRun> {
  const { served, stop } = await serve(warmUp);
  const client = new Client({ name: 'bench-first-search', version: '1.0.0' });
  try {
    await client.connect(
      new StreamableHTTPClientTransport(new URL(served.url), {
        requestInit: { headers: { Authorization: `Bearer ${served.token}` } },
      }),
    );
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    if (!names.includes('tool_search')) throw new Error('tool search did not activate');
    // The client's own first-use cost (its result schema's first parse) is not the
    // gateway's: pay it here, without a request.
    CallToolResultSchema.parse({ content: [{ type: 'text', text: '{}' }] });
    const firstMs = await timed(client, BENCH_QUERIES[0]!);
    const next: number[] = [];
    for (let i = 1; i <= follow; i += 1) {
      next.push(await timed(client, BENCH_QUERIES[i % BENCH_QUERIES.length]!));
    }
    const medianMs = percentile(
      next.sort((a, b) => a - b),
      0.5,
    );
    return {
      warmUp,
      firstMs,
      medianMs,
      ratio: firstMs / medianMs,
      ...(served.report === undefined ? {} : { warmUpMs: served.report.durationMs }),
    };
  } finally {
    await client.close().catch(() => {});
    await stop();
  }
}

/**
 * The median of the runs' ratios with the warm-up on: one first search is one sample, and
 * a loaded machine moves single samples by more than the target, so the verdict is taken
 * over several fresh gateways.
 *
 * @returns the median ratio, or NaN without a run with the warm-up
 * @throws nothing
 */
export function medianRatio(runs: readonly FirstSearchRun[]): number {
  const ratios = runs
    .filter((run) => run.warmUp)
    .map((run) => run.ratio)
    .sort((a, b) => a - b);
  return ratios.length === 0 ? Number.NaN : percentile(ratios, 0.5);
}

/**
 * The report of the runs as a Markdown table, with the target's verdict.
 *
 * @throws nothing
 */
export function formatFirstSearch(runs: readonly FirstSearchRun[]): string {
  const lines = [
    '| gateway warm-up | first search | median of the next | ratio | warm-up (background) |',
    '| :-- | --: | --: | --: | --: |',
  ];
  for (const run of runs) {
    lines.push(
      `| ${run.warmUp ? 'on' : 'off'} | ${formatDuration(run.firstMs)} | ${formatDuration(run.medianMs)} | ${formatRatio(run.ratio)} | ${run.warmUpMs === undefined ? '-' : formatDuration(run.warmUpMs)} |`,
    );
  }
  const ratio = medianRatio(runs);
  if (Number.isFinite(ratio)) {
    lines.push(
      '',
      `Target: first search ≤ ${FIRST_SEARCH_TARGET_RATIO}× the median of the next (warm-up on, the median ratio of ${runs.filter((run) => run.warmUp).length} fresh gateways): ${formatRatio(ratio)}, ${ratio <= FIRST_SEARCH_TARGET_RATIO ? 'met' : 'NOT met'}.`,
    );
  }
  return lines.join('\n');
}
