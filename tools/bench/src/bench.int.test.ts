import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROWS } from './report.js';

const CLI = fileURLToPath(new URL('./cli.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');
// Tests never read the shared data: a folder that does not exist makes the bench use
// its vendored fixtures (62 real tools of tools/bench/fixtures).
const NO_DATA = fileURLToPath(new URL('./no-such-folder', import.meta.url));

// A smoke run: the bench still runs end to end. Benchmarks are not tests, so
// nothing here asserts a time.
function runBench(
  args: readonly string[],
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      TSX,
      CLI,
      '--sizes',
      '100',
      '--iterations',
      '3',
      '--warmup',
      '1',
      '--min-samples',
      '1',
      '--budget-ms',
      '300',
      '--data',
      NO_DATA,
      ...args,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], timeout: 110_000 },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

// The runs are independent processes: run them side by side.
describe.concurrent('pnpm bench', () => {
  it('prints the table, the ratios against every peer and the targets for 100 tools', async () => {
    const { status, stdout, stderr } = await runBench(['--rankers', 'default,spec']);
    expect(status, stderr).toBe(0);
    expect(stdout).toContain('## 100 tools');
    expect(stdout).toContain('62 real from the vendored fallback');
    for (const label of Object.values(ROWS)) expect(stdout).toContain(`| ${label}`);
    for (const column of ['bm25:default', 'bm25:spec', 'minisearch', 'orama', 'wink-bm25']) {
      expect(stdout).toContain(column);
    }
    expect(stdout).toContain('Ratios for bm25:default');
    expect(stdout).toMatch(
      /starts after two full collections and [1-9]\d* ms idle for the collector's concurrent work \(--settle-ms auto/,
    );
    expect(stdout).toContain('estimateToolTokens, chars/4, cold');
    expect(stdout).toMatch(/retained heap at most 1 KB per tool .* (MET|NOT MET)/);
    expect(stdout).toMatch(
      /assembly with 0\.1% changed at most 1\/100 of a cold build .* (MET|NOT MET)/,
    );
  });

  it('falls back to the vendored catalog when --data is not readable, and prints JSON', async () => {
    const { status, stdout, stderr } = await runBench([
      '--rankers',
      'spec',
      '--peers',
      'minisearch',
      '--settle-ms',
      '0',
      '--json',
    ]);
    expect(status, stderr).toBe(0);
    const report = JSON.parse(stdout) as {
      results: {
        size: number;
        source: { kind: string };
        systems: { id: string }[];
        settle: { option: number | 'auto'; ms: number };
      }[];
    };
    expect(report.results[0]?.settle).toEqual({ option: 0, ms: 0 });
    expect(report.results[0]?.source.kind).toBe('fixtures');
    expect(report.results[0]?.size).toBe(100);
    expect(report.results[0]?.systems.map((system) => system.id)).toEqual([
      'bm25:spec',
      'minisearch',
    ]);
  });

  it('rejects an unknown option with the usage and exit code 2', async () => {
    const { status, stderr } = await runBench(['--frobnicate']);
    expect(status).toBe(2);
    expect(stderr).toContain('Unknown option');
    expect(stderr).toContain('--sizes');
  });
});
