import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { installNodeLine } from '../../scripts/src/node-lines.js';

const require = createRequire(import.meta.url);

/** The client command the suite runs: this folder's client.ts on this Node, through tsx. */
export function clientCommand(): string {
  const tsx = require.resolve('tsx/cli');
  const client = fileURLToPath(new URL('./client.ts', import.meta.url));
  return [process.execPath, tsx, client].map((part) => JSON.stringify(part)).join(' ');
}

/** One run of `conformance client`: its exit code, output and summed checks. */
export interface SuiteRun {
  code: number | null;
  output: string;
  passed: number;
  failed: number;
  warnings: number;
}

/** The suite's releases: 0.1.16 (2025 scenarios) and 0.2.0-alpha.11 (2026-07-28 and drafts). */
const SUITES = {
  '0.1.16': '@modelcontextprotocol/conformance/dist/index.js',
  '0.2.0-alpha.11': 'mcp-conformance-2026/dist/index.js',
} as const;

/**
 * Runs the conformance suite's `client` command (on Node 22) with our client.
 *
 * @param selection - `['--suite', 'auth']` or `['--scenario', 'auth/...']`
 * @param release - which release of the suite @defaultValue '0.1.16'
 * @returns the run, with the checks it counted
 */
export async function runClientSuite(
  selection: readonly string[],
  release: keyof typeof SUITES = '0.1.16',
): Promise<SuiteRun> {
  const { runtime } = await installNodeLine('22');
  const cli = require.resolve(SUITES[release]);
  const child = spawn(
    runtime.execPath,
    [cli, 'client', '--command', clientCommand(), ...selection, '--verbose'],
    { env: { ...process.env, ...runtime.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  // A suite prints `Total: N passed, N failed, N warnings`; one scenario `Passed: N/M, N failed, N warnings`.
  const total = /Total: (\d+) passed, (\d+) failed, (\d+) warnings/.exec(output);
  const single = /Passed: (\d+)\/\d+, (\d+) failed, (\d+) warnings/.exec(output);
  const match = total ?? single;
  return {
    code,
    output,
    passed: Number(match?.[1] ?? 0),
    failed: Number(match?.[2] ?? -1),
    warnings: Number(match?.[3] ?? -1),
  };
}
