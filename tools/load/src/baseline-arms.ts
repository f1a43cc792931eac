import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { binScript } from './gateway-config.js';

/**
 * What the gateway adds on a call's path that a baseline run switches off, one at a
 * time: `guardrails` (a deny rule and argument validation), `approvals` (a rule that
 * matches no called tool, so nobody is asked), `activity` (the feed, recorded by the
 * console), `audit` (the store's audit trail; off only through
 * `TOOL_SEARCH_LOAD_WITHOUT=audit`, which exists for this tool alone).
 */
export const GATEWAY_EXTRAS = ['guardrails', 'approvals', 'activity', 'audit'] as const;

/** One extra of {@link GATEWAY_EXTRAS}. */
export type GatewayExtra = (typeof GATEWAY_EXTRAS)[number];

/**
 * The environment variable the gateway reads to run without one of its extras; only
 * `audit` needs it (the others are config keys).
 */
export const LOAD_WITHOUT_ENV = 'TOOL_SEARCH_LOAD_WITHOUT';

/**
 * Writes the config of a baseline gateway: `server-everything` alone over stdio, tool
 * search off (so `echo` is listed and called by its name, as over the upstream alone),
 * and every extra but `without`.
 *
 * @param folder - where the file goes
 * @param without - the extra left out, if any
 * @returns the config file
 * @throws the `fs` error when the folder cannot be written
 */
export function writeBaselineConfig(folder: string, without?: GatewayExtra): string {
  const config: Record<string, unknown> = {
    mcpServers: {
      everything: {
        command: process.execPath,
        args: [binScript('@modelcontextprotocol/server-everything'), 'stdio'],
      },
    },
    toolSearch: { enabled: 'off' },
  };
  if (without !== 'guardrails') {
    // A rule of each kind that every call passes: a denied tool nobody calls, and the
    // arguments checked against the tool's input schema.
    config['guardrails'] = { deny: ['trigger-long-running-operation'], validateArguments: true };
  }
  if (without !== 'approvals') config['approval'] = { require: ['write_file'], fallback: 'deny' };
  if (without !== 'activity') config['console'] = { enabled: true };
  const file = join(folder, `gateway-${without ?? 'all'}.json`);
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
  return file;
}

/**
 * A free loopback port (listen on 0, read it, close): the upstream's own HTTP mode
 * prints the port it was given, not the one it got.
 *
 * @returns the port
 * @throws the `net` error when nothing can listen on loopback
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The upstream served over Streamable HTTP by itself (`server-everything streamableHttp`). */
export interface AloneUpstream {
  pid: number;
  url: string;
  /** SIGTERM, then SIGKILL after a grace; resolves once it has exited. */
  stop(): Promise<void>;
}

/**
 * Starts `server-everything` in its own Streamable HTTP mode (the same package and SDK
 * the gateway's stdio upstream runs) on a free loopback port.
 *
 * @param timeoutMs - how long to wait for its listening line
 * @returns the running server
 * @throws `Error` when it exits or stays silent for `timeoutMs`
 */
export async function startAloneUpstream(timeoutMs: number): Promise<AloneUpstream> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [binScript('@modelcontextprotocol/server-everything'), 'streamableHttp'],
    // It logs every request to stdout: dropped, as the gateway's upstream's are.
    { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`server-everything printed no listening line in ${timeoutMs} ms:\n${stderr}`),
      );
    }, timeoutMs);
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-20_000);
      if (/listening on port/.test(stderr)) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`server-everything exited:\n${stderr}`));
    });
  });
  return {
    pid: child.pid!,
    url: `http://127.0.0.1:${port}/mcp`,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      // Its SIGINT handler closes its sessions; SIGTERM is not handled, so it just ends.
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
