import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from './__fixtures__/paths.js';
import { childPids, waitForExit } from './__fixtures__/processes.js';
import { BUNDLED_SERVERS, resolveBinScript } from './servers.js';

/** The upstream whose `hang` tool never answers (the mcp package's fixture). */
const HANG_SERVER = fileURLToPath(
  new URL('../../../packages/mcp/src/__fixtures__/hang-server.mjs', import.meta.url),
);
const TOKEN = 'shutdown-token-0123456789abcdef';

interface Served {
  child: ChildProcess;
  url: URL;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** Starts `serve --transport http` as a real process and waits for its banner. */
function serveHttp(config: string, extra: readonly string[]): Promise<Served> {
  const child = spawn(
    process.execPath,
    [CLI, 'serve', '--config', config, '--transport', 'http', '--port', '0', ...extra],
    { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on (\S+)/.exec(stderr);
      if (match) resolve({ child, url: new URL(match[1]!), stderr: () => stderr, exited });
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
}

async function connect(url: URL, token?: string): Promise<Client> {
  const client = new Client({ name: 'shutdown-test', version: '0.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(
      url,
      token ? { requestInit: { headers: { Authorization: `Bearer ${token}` } } } : {},
    ),
  );
  return client;
}

/** A call the client itself would wait a minute for; settles with its result or error. */
function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  return client
    .request({ method: 'tools/call', params: { name, arguments: args } }, CallToolResultSchema, {
      timeout: 60_000,
    })
    .then(
      (result) => ({ result, error: undefined }),
      (error: { code?: number; message?: string }) => ({ result: undefined, error }),
    );
}

describe('serve shutdown and banner (real processes)', () => {
  let folder: string;
  let config: string;

  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'gateway-shutdown-'));
    config = join(folder, 'gateway.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          hang: { command: process.execPath, args: [HANG_SERVER] },
          everything: {
            command: process.execPath,
            args: [resolveBinScript(BUNDLED_SERVERS.everything), 'stdio'],
          },
        },
        toolSearch: { enabled: 'off' },
      }),
    );
  });

  afterAll(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  it('on SIGTERM over HTTP: a hanging call gets a shutdown error, a short one its result; exits 0 with its upstreams', async () => {
    const served = await serveHttp(config, ['--shutdown-grace', '4']);
    // Loopback without a token: the operator is told who can connect.
    expect(served.stderr()).toContain(
      'warning: no bearer token: any process on this machine (any local user, any local program) can connect',
    );
    expect(served.stderr()).toContain('--token');
    const [waiting, working] = await Promise.all([connect(served.url), connect(served.url)]);
    const hanging = call(waiting, 'hang');
    const finishing = call(working, 'trigger-long-running-operation', { duration: 1.5, steps: 3 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const upstreams = childPids(served.child.pid!);
    expect(upstreams.length).toBe(2);

    served.child.kill('SIGTERM');
    const [hung, finished] = await Promise.all([hanging, finishing]);
    expect(hung.error).toMatchObject({
      code: -32000,
      message: expect.stringContaining('The gateway is shutting down'),
    });
    expect(finished.error).toBeUndefined();
    expect(finished.result?.isError).not.toBe(true);
    expect(await served.exited).toBe(0);
    await waitForExit([served.child.pid!, ...upstreams]);
    expect(served.stderr()).toContain('SIGTERM: shutting down; calls in flight have 4 s to finish');
    await Promise.allSettled([waiting.close(), working.close()]);
  }, 60_000);

  it('on SIGTERM over stdio: the call in flight is answered with a shutdown error, a new one refused', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'serve', '--config', config, '--shutdown-grace', '2'],
      env: { ...(process.env as Record<string, string>), NO_COLOR: '1' },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'shutdown-test', version: '0.0.0' });
    await client.connect(transport);
    const hanging = call(client, 'hang');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const pid = transport.pid!;
    const upstreams = childPids(pid);
    process.kill(pid, 'SIGTERM');
    // A call sent during the grace period is refused at once.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const late = await call(client, 'cancelled_count');
    expect(late.error).toMatchObject({
      code: -32000,
      message: expect.stringContaining('it takes no new calls'),
    });
    const hung = await hanging;
    expect(hung.error).toMatchObject({
      code: -32000,
      message: expect.stringContaining('The gateway is shutting down'),
    });
    expect(hung.error?.message).toContain('grace period');
    await waitForExit([pid, ...upstreams]);
    await client.close();
  }, 60_000);

  it('says that a 0.0.0.0 bind listens on all interfaces, and where to connect from here', async () => {
    const served = await serveHttp(config, ['--host', '0.0.0.0', '--token', TOKEN]);
    try {
      const banner = served.stderr();
      expect(banner).toMatch(/listening on http:\/\/0\.0\.0\.0:\d+\/mcp/);
      expect(banner).toContain('all IPv4 interfaces, reachable from other machines');
      const local = /from this one connect to (\S+)/.exec(banner)?.[1];
      expect(local).toBe(`http://127.0.0.1:${served.url.port}/mcp`);
      // With a token there is nothing to warn about.
      expect(banner).not.toContain('no bearer token');
      const client = await connect(new URL(local!), TOKEN);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('hang');
      await client.close();
    } finally {
      const upstreams = childPids(served.child.pid!);
      served.child.kill('SIGTERM');
      await waitForExit([served.child.pid!, ...upstreams]);
    }
  }, 60_000);
});
