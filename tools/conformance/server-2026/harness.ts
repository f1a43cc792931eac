/**
 * The 2026-07-28 server scenarios of the MCP conformance suite (0.2.0-alpha.11, run on
 * Node 22 from the npm `node` package), against the suite's reference everything-server
 * alone and behind the gateway.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseGatewayConfig } from '@tool-search/mcp/config';
import { type StartedGateway, startGateway } from '@tool-search/mcp-http';
import { installNodeLine, type NodeRuntime } from '../../scripts/src/node-lines.js';

const here = dirname(fileURLToPath(import.meta.url));
const packageRoot = join(here, '..');

/** One scenario's outcome, as the suite prints it. */
export interface ScenarioOutcome {
  passed: number;
  failed: number;
  ok: boolean;
}

/** The suite's outcome by scenario name. */
export type SuiteReport = Map<string, ScenarioOutcome>;

/** Node 22, from the cache or installed into it. */
export async function node22(): Promise<NodeRuntime> {
  return (await installNodeLine('22')).runtime;
}

/** A free loopback port. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

/** A spawned reference server: its URL and its stop. */
export interface ReferenceServer {
  url: string;
  stop(): Promise<void>;
}

/** Starts the vendored reference everything-server on Node 22 and waits until it listens. */
export async function startReference(runtime: NodeRuntime): Promise<ReferenceServer> {
  const port = await freePort();
  const tsx = join(packageRoot, 'node_modules', 'tsx', 'dist', 'cli.mjs');
  const child = spawn(runtime.execPath, [tsx, join(here, 'vendor', 'everything-server.ts')], {
    cwd: packageRoot,
    env: { ...process.env, ...runtime.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => reject(new Error(`the reference server did not start:\n${output}`)),
      60_000,
    );
    const seen = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('MCP endpoint')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', seen);
    child.stderr?.on('data', seen);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the reference server exited (${code}):\n${output}`));
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

/**
 * The gateway in front of the reference server, on loopback without a token (as the
 * suite connects), its tool search as asked.
 */
export async function startGatewayFront(
  upstreamUrl: string,
  toolSearch: 'off' | 'default',
): Promise<StartedGateway> {
  const config = parseGatewayConfig({
    // The suite's sampling scenarios answer the upstream's question at once: the default
    // (`ask`) would ask the client's user first, in a round of the gateway's own.
    mcpServers: { everything: { url: upstreamUrl, sampling: 'allow' } },
    ...(toolSearch === 'off' ? { toolSearch: { enabled: 'off' } } : {}),
  });
  const port = await freePort();
  return startGateway({ config, http: { port }, warmUp: false });
}

/** Runs the suite's 2026-07-28 server requirements once against a URL. */
export async function runSuite(runtime: NodeRuntime, url: string): Promise<SuiteReport> {
  const cli = join(packageRoot, 'node_modules', 'mcp-conformance-2026', 'dist', 'index.js');
  const child = spawn(
    runtime.execPath,
    [cli, 'server', '--url', url, '--requirements', '2026-07-28'],
    {
      cwd: packageRoot,
      env: { ...process.env, ...runtime.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  await new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return parseReport(output);
}

/**
 * The scenario lines of the suite's summary (`✓ name: 3 passed, 0 failed`).
 *
 * @param output - what the suite printed
 * @returns the outcome by scenario (the last line of each name wins)
 */
export function parseReport(output: string): SuiteReport {
  const report: SuiteReport = new Map();
  for (const line of output.split('\n')) {
    const match = /^([✓✗]) ([\w-]+): (\d+) passed, (\d+) failed/.exec(line.trim());
    if (match === null) continue;
    report.set(match[2]!, {
      ok: match[1] === '✓',
      passed: Number(match[3]),
      failed: Number(match[4]),
    });
  }
  return report;
}

/**
 * The scenarios the gateway carries: tools, discover, headers, resultType, caching,
 * listen, input_required (issue 39), resources, prompts and completion (issue 40). The
 * tasks extension is not carried (the gateway declines it; the reference fails it alone).
 */
export function inScope(scenario: string): boolean {
  return !/^tasks-/.test(scenario);
}
