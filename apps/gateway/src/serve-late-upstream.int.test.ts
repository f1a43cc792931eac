import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  type CallToolResult,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, FIXTURE_ENV } from './__fixtures__/paths.js';
import { childPids, waitForExit } from './__fixtures__/processes.js';

// The slow upstream of the mcp package's fixtures: it connects only once its go file exists.
const SLOW_SERVER = fileURLToPath(
  new URL('../../../packages/mcp/src/__fixtures__/slow-server.mjs', import.meta.url),
);

async function until<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('serve with an upstream that is slow to start', () => {
  const folder = mkdtempSync(join(tmpdir(), 'gateway-late-'));
  const goFile = join(folder, 'go');
  const token = 'late-upstream-token-0123456789';
  let child: ChildProcess | undefined;
  let stderr = '';

  afterAll(async () => {
    if (child?.pid !== undefined && child.exitCode === null) {
      const children = childPids(child.pid);
      child.kill('SIGTERM');
      await waitForExit([child.pid, ...children]);
    }
    rmSync(folder, { recursive: true, force: true });
  });

  it('listens at once, and sends its clients list_changed when the late tools arrive', async () => {
    const config = join(folder, 'gateway.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          filesystem: {
            command: process.execPath,
            args: [FIXTURE_ENV['GATEWAY_TEST_FILESYSTEM'], FIXTURE_ENV['GATEWAY_TEST_WORKSPACE']],
          },
          slow: { command: process.execPath, args: [SLOW_SERVER], env: { SLOW_GO_FILE: goFile } },
        },
        toolSearch: false,
      }),
    );
    child = spawn(
      process.execPath,
      [CLI, 'serve', '--config', config, '--transport', 'http', '--port', '0', '--token', token],
      { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // The slow server cannot be ready before the go file exists: the gateway must listen without it.
    const url = await until(() => {
      const match = /listening on (\S+)/.exec(stderr);
      return match ? new URL(match[1]!) : undefined;
    });
    // The banner's second line may arrive in a later chunk of stderr.
    await until(() => (/still connecting: .*slow/.test(stderr) ? true : undefined));
    expect(stderr).toMatch(/still connecting: .*slow/);

    const client = new Client({ name: 'late-test', version: '0.0.0' });
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      changes += 1;
    });
    await client.connect(
      new StreamableHTTPClientTransport(url, {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    const names = async () => (await client.listTools()).tools.map((tool) => tool.name);
    expect(await names()).not.toContain('slow_echo');
    const before = changes;

    writeFileSync(goFile, '');
    await until(() => (changes > before ? true : undefined));
    await until(async () => ((await names()).includes('slow_echo') ? true : undefined));
    const result = (await client.callTool({
      name: 'slow_echo',
      arguments: { message: 'late but here' },
    })) as CallToolResult;
    expect(result.content).toEqual([{ type: 'text', text: 'slow echo: late but here' }]);
    await until(() => (/upstream servers settled: 2 ready/.test(stderr) ? true : undefined));
    await client.close();
  }, 60_000);
});
