/**
 * The MCP conformance suite's 2025-11-25 release (`@modelcontextprotocol/conformance`
 * 0.1.16) run on Node 22 against a server URL, and its reference everything-server
 * (vendored at the same tag, see vendor/ORIGIN.md) started on a free loopback port.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installNodeLine, type NodeRuntime } from '../../scripts/src/node-lines.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

/** The suite's server checks of one scenario, as its `checks.json` holds them. */
export interface ScenarioOutcome {
  scenario: string;
  passed: boolean;
  /** The checks that failed: id and message. */
  failures: string[];
}

/** Node 22, from the npm registry once, then from the cache (the suite needs it). */
export async function suiteNode(): Promise<NodeRuntime> {
  return (await installNodeLine('22')).runtime;
}

/** A free loopback port. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** A running reference server: its MCP URL and how to stop it. */
export interface RunningServer {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts the vendored everything-server on Node 22 (through tsx) and
 * waits for its "running" line.
 *
 * @throws Error when it exits or says nothing within 60 s
 */
export async function startEverythingServer(node: NodeRuntime): Promise<RunningServer> {
  const port = await freePort();
  // tsx, not Node's type stripping: the server imports types without `import type`.
  const tsx = require.resolve('tsx');
  const server = join(HERE, 'vendor', 'everything-server.ts');
  const child = spawn(node.execPath, ['--import', tsx, server], {
    cwd: join(HERE, '..'),
    env: { ...process.env, ...node.env, PORT: String(port), NODE_NO_WARNINGS: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 60 s: ${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('running on')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the everything-server exited (${code}): ${output}`));
    });
  });
  return { url: `http://localhost:${port}/mcp`, stop: () => stopChild(child) };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** The suite's own entry point, as npm installed it. */
function suiteBin(): string {
  return join(
    dirname(require.resolve('@modelcontextprotocol/conformance/package.json')),
    'dist',
    'index.js',
  );
}

/**
 * Runs the suite with `args` (its output folder appended) and hands the folder to `read`
 * before removing it. Exit code 1 means a scenario failed: the checks say which.
 *
 * @throws Error when the suite cannot run or exits otherwise
 */
async function withSuiteRun<T>(
  node: NodeRuntime,
  args: readonly string[],
  read: (outputDir: string) => Promise<T>,
): Promise<T> {
  const outputDir = await mkdtemp(join(tmpdir(), 'conformance-2025-'));
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(node.execPath, [suiteBin(), ...args, '-o', outputDir], {
        env: { ...process.env, ...node.env, NODE_NO_WARNINGS: '1' },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        stderr = (stderr + chunk.toString()).slice(-4_000);
      });
      child.once('error', reject);
      child.once('exit', (code) =>
        code === 0 || code === 1 ? resolve() : reject(new Error(`suite exited ${code}: ${stderr}`)),
      );
    });
    return await read(outputDir);
  } finally {
    await rm(outputDir, { recursive: true, force: true });
  }
}

/** One scenario's checks, as the suite wrote them: how many, and the failures. */
async function checksOf(folder: string): Promise<{ count: number; failures: string[] }> {
  const checks = JSON.parse(await readFile(join(folder, 'checks.json'), 'utf8')) as {
    id: string;
    status: string;
    errorMessage?: string;
  }[];
  const failures = checks
    .filter((check) => check.status === 'FAILURE')
    .map((check) => `${check.id}: ${check.errorMessage ?? 'failed'}`);
  return { count: checks.length, failures };
}

/**
 * Runs the suite's active server scenarios (one suite process, scenarios in turn)
 * against a URL and reads every scenario's checks.
 *
 * @throws Error when the suite cannot run or leaves no result
 */
export function runServerSuite(node: NodeRuntime, url: string): Promise<ScenarioOutcome[]> {
  return withSuiteRun(node, ['server', '--url', url], async (outputDir) => {
    const outcomes: ScenarioOutcome[] = [];
    for (const entry of await readdir(outputDir)) {
      const scenario = entry.replace(/^server-/, '').replace(/-\d{4}-\d\d-\d\dT.*$/, '');
      const { failures } = await checksOf(join(outputDir, entry));
      outcomes.push({ scenario, passed: failures.length === 0, failures });
    }
    if (outcomes.length === 0) throw new Error(`the suite left no result for ${url}`);
    return outcomes.sort((a, b) => a.scenario.localeCompare(b.scenario));
  });
}

/**
 * Runs one client scenario of the suite with a client command (the suite starts its
 * server and appends its URL to the command) and reads its checks.
 *
 * @throws Error when the suite leaves no result
 */
export function runClientScenario(
  node: NodeRuntime,
  scenario: string,
  command: string,
): Promise<ScenarioOutcome> {
  const args = ['client', '--command', command, '--scenario', scenario];
  return withSuiteRun(node, args, async (outputDir) => {
    const [entry] = await readdir(outputDir);
    if (entry === undefined) throw new Error(`the suite left no result for ${scenario}`);
    const { count, failures } = await checksOf(join(outputDir, entry));
    return { scenario, passed: failures.length === 0 && count > 0, failures };
  });
}

/** The command line of a TypeScript file of this folder on a Node (through tsx). */
export function tsxCommand(node: NodeRuntime, file: string): string {
  return [node.execPath, '--import', require.resolve('tsx'), join(HERE, file)]
    .map((part) => JSON.stringify(part))
    .join(' ');
}
