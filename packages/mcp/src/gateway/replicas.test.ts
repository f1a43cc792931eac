import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { startRedis, type TestRedis } from '@tool-search/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf } from '../__fixtures__/clients.js';
import { filesystemServer, tempWorkspace } from '../__fixtures__/servers.js';
import { parseGatewayConfig } from '../config/parse.js';
import { createRedisStore } from '../store/redis-store.js';
import { reviewKey } from '../upstream/review.js';
import { type StartedGateway, startGateway } from './start.js';

const TOKEN = 'replica-token-0123456789abcdef';

/**
 * A client whose every request goes to the next replica in turn: round robin with no
 * stickiness, as a load balancer without session affinity does.
 */
async function roundRobinClient(urls: string[], answers: string[]) {
  let turn = 0;
  const seen: string[] = [];
  const client = new Client(
    { name: 'replica-test', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler(ElicitRequestSchema, async () => {
    const decision = answers.shift() ?? 'deny';
    return { action: 'accept', content: { decision } };
  });
  const transport = new StreamableHTTPClientTransport(new URL(urls[0]!), {
    requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    fetch: async (_input, init) => {
      // No standing GET stream: every exchange is a POST that may land anywhere.
      if (init?.method === 'GET') return new Response(null, { status: 405 });
      const target = urls[turn % urls.length]!;
      turn += 1;
      seen.push(target);
      return fetch(target, init);
    },
  });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { client, transport, call, seen };
}

describe('gateway replicas on a shared Redis store', () => {
  let redis: TestRedis;
  let workspace: ReturnType<typeof tempWorkspace>;
  const replicas: StartedGateway[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    workspace = tempWorkspace();
    const config = parseGatewayConfig({
      mcpServers: { filesystem: filesystemServer(workspace.directory) },
      toolSearch: { enabled: 'off' },
      approval: { require: ['write_file'], fallback: 'deny' },
    });
    for (let index = 0; index < 2; index += 1) {
      replicas.push(
        await startGateway({
          config,
          store: redis.url,
          http: { host: '127.0.0.1', port: 0, token: TOKEN },
        }),
      );
    }
    await Promise.all(replicas.map((replica) => replica.ready()));
  }, 60_000);

  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.close()));
    await redis?.dispose();
    workspace?.cleanup();
  });

  it('serves one session from both replicas, with its approval remembered across them and every call in the audit trail', async () => {
    const answers = ['allow-session'];
    const session = await roundRobinClient(
      replicas.map((replica) => replica.url!),
      answers,
    );
    const sessionId = session.transport.sessionId!;
    const tools = (await session.client.listTools()).tools.map((tool) => tool.name);
    expect(tools).toContain('write_file');
    for (let index = 0; index < 4; index += 1) {
      const written = await session.call('write_file', {
        path: join(workspace.directory, `note-${index}.txt`),
        content: `note ${index}`,
      });
      expect(written.isError ?? false, textOf(written)).toBe(false);
    }
    // One person's answer for the whole session, whichever replica asked next.
    expect(answers).toEqual([]);
    for (let index = 0; index < 4; index += 1) {
      expect(readFileSync(join(workspace.directory, `note-${index}.txt`), 'utf8')).toBe(
        `note ${index}`,
      );
    }
    expect(new Set(session.seen)).toEqual(new Set(replicas.map((replica) => replica.url)));
    const trail = await replicas[0]!.store.readAudit({ count: 100 });
    const mine = trail.filter((entry) => entry.record?.sessionId === sessionId);
    expect(mine.map((entry) => entry.record?.tool)).toEqual([
      'write_file',
      'write_file',
      'write_file',
      'write_file',
    ]);
    expect(mine.every((entry) => entry.record?.decision === 'allowed')).toBe(true);
    await session.client.close();
  }, 60_000);

  it('fails closed with a store_unavailable error while Redis is down, then serves the same session again', async () => {
    const session = await roundRobinClient(
      replicas.map((replica) => replica.url!),
      ['allow-session'],
    );
    await session.call('write_file', { path: join(workspace.directory, 'a.txt'), content: 'a' });
    await redis.stop();
    const failed = await session
      .call('write_file', { path: join(workspace.directory, 'b.txt'), content: 'b' })
      .then(
        () => 'answered',
        (error: unknown) => String(error),
      );
    expect(failed).toMatch(/store .* is unavailable/);
    const ready = await fetch(new URL('/readyz', replicas[0]!.url));
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ ready: false, detail: /the store does not answer/ });
    // Alive all the same: a balancer takes it out of rotation, nobody restarts it.
    expect((await fetch(new URL('/healthz', replicas[0]!.url))).status).toBe(200);
    await redis.start();
    const deadline = Date.now() + 20_000;
    while ((await fetch(new URL('/readyz', replicas[1]!.url))).status !== 200) {
      if (Date.now() > deadline) throw new Error('the replica did not become ready again');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const again = await session.call('write_file', {
      path: join(workspace.directory, 'c.txt'),
      content: 'c',
    });
    expect(again.isError ?? false, textOf(again)).toBe(false);
    expect(readFileSync(join(workspace.directory, 'c.txt'), 'utf8')).toBe('c');
    await session.client.close();
  }, 60_000);

  it('forgets a session on every replica once its client closes it on one', async () => {
    const session = await roundRobinClient(
      replicas.map((replica) => replica.url!),
      [],
    );
    const sessionId = session.transport.sessionId!;
    await session.client.listTools();
    await session.client.listTools();
    await session.transport.terminateSession();
    for (const replica of replicas) {
      const response = await fetch(replica.url!, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${TOKEN}`,
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
          'mcp-session-id': sessionId,
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
      });
      expect(response.status).toBe(404);
      await response.text();
    }
    await session.client.close();
  }, 30_000);

  it('replays a stream on another replica to a client that reconnects with Last-Event-ID', async () => {
    const [a, b] = replicas.map((replica) => replica.url!) as [string, string];
    const headers = {
      authorization: `Bearer ${TOKEN}`,
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
    };
    const initialized = await fetch(a, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      }),
    });
    const sessionId = initialized.headers.get('mcp-session-id')!;
    await initialized.text();
    const session = {
      ...headers,
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-11-25',
    };
    await (
      await fetch(b, {
        method: 'POST',
        headers: session,
        body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      })
    ).text();
    // A call on replica A; its SSE answer starts with a priming event the client may resume from.
    const called = await (
      await fetch(a, {
        method: 'POST',
        headers: session,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'list_allowed_directories', arguments: {} },
        }),
      })
    ).text();
    const ids = [...called.matchAll(/^id: (.+)$/gm)].map((match) => match[1]!);
    expect(ids.length).toBeGreaterThanOrEqual(2);
    // As if A died after the priming event: the client resumes on B.
    const resumed = await fetch(b, {
      headers: { ...session, accept: 'text/event-stream', 'last-event-id': ids[0]! },
    });
    expect(resumed.status).toBe(200);
    const reader = resumed.body!.getReader();
    let replayed = '';
    while (!replayed.includes('"id":2')) {
      const { value, done } = await reader.read();
      if (done) break;
      replayed += new TextDecoder().decode(value);
    }
    await reader.cancel();
    expect(replayed).toContain(`id: ${ids[1]}`);
    expect(replayed).toContain('Allowed directories');
  }, 30_000);

  it('refuses a store URL that is not redis:// with invalid_config', () => {
    expect(() => createRedisStore({ url: 'http://127.0.0.1:1' })).toThrow(/redis:\/\/host:port/);
  });
});

describe('tool review across replicas on a shared Redis store', () => {
  let redis: TestRedis;
  let workspace: ReturnType<typeof tempWorkspace>;
  const replicas: StartedGateway[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    workspace = tempWorkspace();
    const config = parseGatewayConfig({
      mcpServers: { filesystem: filesystemServer(workspace.directory) },
      toolSearch: { enabled: 'off' },
      review: { file: join(workspace.directory, 'tool-review.json'), hold: 'new-and-changed' },
    });
    for (let index = 0; index < 2; index += 1) {
      replicas.push(await startGateway({ config, store: redis.url, http: true }));
    }
    await Promise.all(replicas.map((replica) => replica.ready()));
  }, 60_000);

  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.close()));
    await redis?.dispose();
    workspace?.cleanup();
  });

  it('holds new tools on every replica until their fingerprints are accepted in the store, then serves them on every replica', async () => {
    const served = (replica: StartedGateway) =>
      replica.pool.tools().some((tool) => tool.name === 'write_file');
    expect(replicas.map(served)).toEqual([false, false]);
    const accepted = new Map(
      replicas[0]!.pool
        .fingerprints()
        .map((tool) => [reviewKey(tool.server, tool.name), tool.fingerprint] as const),
    );
    expect(accepted.size).toBeGreaterThan(0);
    // What `inspect --accept --store` does: one write, read by every replica.
    const store = createRedisStore({ url: redis.url });
    const deadline = Date.now() + 10_000;
    for (;;) {
      try {
        await store.putFingerprints(accepted);
        break;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    await store.close();
    const until = Date.now() + 15_000;
    while (!replicas.every(served)) {
      if (Date.now() > until) throw new Error('a replica still holds the accepted tools');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 60_000);
});
