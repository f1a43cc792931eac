import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  freePort,
  startNginxBalancer,
  startRedis,
  type TestBalancer,
  type TestRedis,
} from '@tool-search/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from './__fixtures__/paths.js';
import { startReplica, type TestReplica } from './__fixtures__/replicas.js';
import { runCli } from './__fixtures__/run.js';
import { BUNDLED_SERVERS, resolveBinScript } from './servers.js';

const TOKEN = 'replicas-admin-token-0123456789';
const FILES_TOKEN = 'replicas-files-token-0123456789';

interface AuditLine {
  tool: string;
  sessionId?: string;
  profile?: string;
  decision: string;
  replica: string;
}

/** An SDK client through the balancer that answers every approval question with `answer`. */
async function connectThroughBalancer(url: string, token: string, answer = 'allow-session') {
  let asked = 0;
  const client = new Client(
    { name: 'replicas-test', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler(ElicitRequestSchema, async () => {
    asked += 1;
    return { action: 'accept', content: { decision: answer } };
  });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return {
    client,
    sessionId: () => transport.sessionId!,
    asked: () => asked,
    call: async (name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })) as CallToolResult,
  };
}

function textOf(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

describe('gateway replicas behind nginx on a shared Redis', () => {
  let redis: TestRedis;
  let balancer: TestBalancer;
  let replicas: TestReplica[] = [];
  let workspace: string;
  let config: string;

  const audit = async (): Promise<AuditLine[]> => {
    const run = await runCli(['audit', '--store', redis.url, '--count', '1000']);
    expect(run.code, run.stderr).toBe(0);
    return run.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as AuditLine);
  };

  beforeAll(async () => {
    redis = await startRedis();
    workspace = mkdtempSync(join(tmpdir(), 'gw-replicas-'));
    config = join(workspace, 'gateway.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          filesystem: {
            command: process.execPath,
            args: [resolveBinScript(BUNDLED_SERVERS.filesystem), workspace],
          },
          github: {
            command: process.execPath,
            args: [CLI, 'recorded-server', '--servers', 'github', '--names', 'raw'],
          },
        },
        toolSearch: { enabled: 'off' },
        approval: { require: ['write_file'], fallback: 'deny' },
        profiles: { files: { enabledToolsets: ['mcp-filesystem'], token: FILES_TOKEN } },
      }),
    );
    const ports = [await freePort(), await freePort(), await freePort()];
    const balancerPort = await freePort();
    const flags = [
      '--store',
      redis.url,
      '--token',
      TOKEN,
      '--allow-host',
      `127.0.0.1:${balancerPort}`,
    ];
    replicas = await Promise.all(ports.map((port) => startReplica(config, port, flags)));
    balancer = await startNginxBalancer(balancerPort, ports);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.kill()));
    await balancer?.dispose();
    await redis?.dispose();
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  });

  it('keeps a session’s scope, approvals and audit trail while its requests land on different replicas', async () => {
    const session = await connectThroughBalancer(balancer.url, FILES_TOKEN);
    for (let round = 0; round < 3; round += 1) {
      const names = (await session.client.listTools()).tools.map((tool) => tool.name);
      // The profile's scope on every replica: filesystem tools, no github ones.
      expect(names).toContain('write_file');
      expect(names).not.toContain('create_issue');
    }
    for (let index = 0; index < 6; index += 1) {
      const result = await session.call('write_file', {
        path: join(workspace, `scope-${index}.txt`),
        content: `scope ${index}`,
      });
      expect(result.isError ?? false, textOf(result)).toBe(false);
    }
    const outside = await session.call('create_issue', { owner: 'a', repo: 'b', title: 'c' });
    expect(outside.isError).toBe(true);
    expect(session.asked()).toBe(1);
    for (let index = 0; index < 6; index += 1) {
      expect(readFileSync(join(workspace, `scope-${index}.txt`), 'utf8')).toBe(`scope ${index}`);
    }
    const mine = (await audit()).filter((line) => line.sessionId === session.sessionId());
    expect(mine.filter((line) => line.tool === 'write_file')).toHaveLength(6);
    expect(mine.every((line) => line.profile === 'files')).toBe(true);
    // Round robin without stickiness: the calls were served by more than one replica.
    expect(new Set(mine.map((line) => line.replica)).size).toBeGreaterThan(1);
    await session.client.close();
  }, 120_000);

  it('goes on through the balancer when a replica is killed mid-session, losing no write, record or approval', async () => {
    const session = await connectThroughBalancer(balancer.url, TOKEN);
    const write = async (name: string) => {
      const result = await session.call('write_file', {
        path: join(workspace, name),
        content: name,
      });
      expect(result.isError ?? false, textOf(result)).toBe(false);
    };
    for (let index = 0; index < 3; index += 1) await write(`before-${index}.txt`);
    await replicas[0]!.kill();
    for (let index = 0; index < 6; index += 1) await write(`after-${index}.txt`);
    expect(session.asked()).toBe(1);
    for (const name of [0, 1, 2].map((index) => `before-${index}.txt`)) {
      expect(readFileSync(join(workspace, name), 'utf8')).toBe(name);
    }
    for (const name of [0, 1, 2, 3, 4, 5].map((index) => `after-${index}.txt`)) {
      expect(readFileSync(join(workspace, name), 'utf8')).toBe(name);
    }
    const mine = (await audit()).filter((line) => line.sessionId === session.sessionId());
    expect(
      mine.filter((line) => line.tool === 'write_file' && line.decision === 'allowed'),
    ).toHaveLength(9);
    await session.client.close();
  }, 120_000);

  it('follows the audit trail with audit --follow and stops at once on SIGINT', async () => {
    const child = spawn(
      process.execPath,
      [CLI, 'audit', '--store', redis.url, '--count', '1', '--follow'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const until = async (probe: () => boolean) => {
      const deadline = Date.now() + 20_000;
      while (!probe()) {
        if (Date.now() > deadline) throw new Error(`not seen in time; stdout: ${stdout}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    // The last record is printed first; a new one follows as it is written.
    await until(() => stdout.split('\n').filter(Boolean).length >= 1);
    const session = await connectThroughBalancer(balancer.url, TOKEN);
    await session.call('list_allowed_directories', {});
    await until(() => stdout.includes(`"sessionId":"${session.sessionId()}"`));
    await session.client.close();
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  }, 60_000);

  it('answers clear store errors while Redis restarts, then serves the same session again', async () => {
    const session = await connectThroughBalancer(balancer.url, TOKEN);
    const write = (name: string) =>
      session.call('write_file', { path: join(workspace, name), content: name });
    expect((await write('redis-before.txt')).isError ?? false).toBe(false);
    await redis.stop();
    const failed = await write('redis-down.txt').then(
      (result) => `answered: ${textOf(result)}`,
      (error: unknown) => String(error),
    );
    expect(failed).toMatch(/store \(redis:\/\/127\.0\.0\.1:\d+\) is unavailable/);
    const ready = await fetch(balancer.url.replace('/mcp', '/readyz'));
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ ready: false, detail: /store/ });
    await redis.start();
    const deadline = Date.now() + 30_000;
    for (;;) {
      const result = await write('redis-after.txt').catch(() => undefined);
      if (result !== undefined && !(result.isError ?? false)) break;
      if (Date.now() > deadline) throw new Error('the session did not recover');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(readFileSync(join(workspace, 'redis-after.txt'), 'utf8')).toBe('redis-after.txt');
    // The approval survived the restart (Redis keeps its data on disk).
    expect(session.asked()).toBe(1);
    await session.client.close();
  }, 120_000);
});
