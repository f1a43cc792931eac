import { existsSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { parseGatewayConfig } from '@tool-search/mcp/config';
import { reviewKey } from '@tool-search/mcp/review';
import { createRedisStore } from '@tool-search/mcp/store/redis';
import { startRedis, type TestRedis } from '@tool-search/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesystemServer, tempWorkspace } from '../../mcp/src/__fixtures__/servers.js';
import { textOf } from './__fixtures__/clients.js';
import { type StartedGateway, startGateway } from './start.js';

const TOKEN = 'replica-token-0123456789abcdef';
const READER_TOKEN = 'replica-reader-token-0123456789';
const WRITER_TOKEN = 'replica-writer-token-0123456789';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A client whose POSTs go where `route` says, by their body, with no standing GET
 * stream: a balancer without affinity that happens to split one session's calls.
 * Every answer to a question the client sends is kept in `answers`.
 */
async function routedClient(
  token: string,
  route: (body: string) => string,
  elicit: (message: string, questionId: string | number) => Promise<string>,
) {
  const answers: string[] = [];
  const client = new Client(
    { name: 'replica-test', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler(ElicitRequestSchema, async (request, extra) => ({
    action: 'accept',
    content: { decision: await elicit(request.params.message, extra.requestId) },
  }));
  const transport = new StreamableHTTPClientTransport(new URL(route('')), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
    fetch: async (_input, init) => {
      if (init?.method === 'GET') return new Response(null, { status: 405 });
      const body = typeof init?.body === 'string' ? init.body : '';
      if (body.includes('"result"') && !body.includes('"method"')) answers.push(body);
      return fetch(route(body), init);
    },
  });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { client, transport, call, answers };
}

/** Posts a raw JSON-RPC message on a session, as a client would. */
async function postRaw(url: string, token: string, sessionId: string, message: unknown) {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify(message),
  });
  return { status: response.status, text: await response.text() };
}

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
      toolsets: [{ name: 'reading', tools: ['read_text_file', 'list_allowed_directories'] }],
      profiles: {
        reader: { enabledToolsets: ['reading'], token: READER_TOKEN },
        writer: { enabledToolsets: ['mcp-filesystem'], token: WRITER_TOKEN },
      },
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

  it('hands each approval answer to its own question when one session waits on two replicas, and refuses an answer to no open question', async () => {
    const [a, b] = replicas.map((replica) => replica.url!) as [string, string];
    // Both questions are out before either is answered; the deny comes last.
    let bothAsked = () => {};
    const asked = new Promise<void>((resolve) => {
      bothAsked = resolve;
    });
    const questions: string[] = [];
    const session = await routedClient(
      TOKEN,
      (body) => (body.includes('dangerous') ? b : a),
      async (message) => {
        questions.push(message);
        if (questions.length === 2) bothAsked();
        await asked;
        if (message.includes('dangerous')) {
          await sleep(300);
          return 'deny';
        }
        return 'allow-once';
      },
    );
    const [benign, dangerous] = await Promise.all([
      session.call('write_file', { path: join(workspace.directory, 'benign.txt'), content: 'ok' }),
      session.call('write_file', {
        path: join(workspace.directory, 'dangerous.txt'),
        content: 'dangerous',
      }),
    ]);
    expect(questions).toHaveLength(2);
    expect(benign.isError ?? false, textOf(benign)).toBe(false);
    expect(readFileSync(join(workspace.directory, 'benign.txt'), 'utf8')).toBe('ok');
    expect(dangerous.isError, textOf(dangerous)).toBe(true);
    expect(textOf(dangerous)).toMatch(/denied/);
    expect(existsSync(join(workspace.directory, 'dangerous.txt'))).toBe(false);

    // The two questions had ids of their own, and each was answered once.
    const ids = session.answers.map((body) => (JSON.parse(body) as { id: unknown }).id);
    expect(new Set(ids).size).toBe(2);
    // An answer again, on either replica, or on another session: no open question has its id.
    const sessionId = session.transport.sessionId!;
    for (const url of [a, b]) {
      const again = await postRaw(url, TOKEN, sessionId, JSON.parse(session.answers[0]!));
      expect(again.status).toBe(400);
      expect(again.text).toMatch(/no open question of this session/);
    }
    const unknown = await postRaw(a, TOKEN, sessionId, {
      jsonrpc: '2.0',
      id: 0,
      result: { action: 'accept', content: { decision: 'allow-once' } },
    });
    expect(unknown.status).toBe(400);
    await session.client.close();
  }, 60_000);

  it('scopes a session restored on another replica by its token, whatever its stored record says', async () => {
    const [a, b] = replicas.map((replica) => replica.url!) as [string, string];
    const listed = async (target: { url: string }) => {
      const session = await routedClient(
        READER_TOKEN,
        () => target.url,
        async () => 'deny',
      );
      return session;
    };
    const key = (id: string) => `tool-search:session:${id}`;
    const forge = (id: string, edit: (record: Record<string, unknown>) => void) => {
      const record = JSON.parse(redis.cli(['GET', key(id)])) as Record<string, unknown>;
      edit(record);
      expect(redis.cli(['SET', key(id), JSON.stringify(record), 'KEEPTTL'])).toBe('OK');
    };
    // A record of an older gateway, without a profile; and one that names a wider profile.
    const edits: ((record: Record<string, unknown>) => void)[] = [
      (record) => {
        delete record['profile'];
      },
      (record) => {
        record['profile'] = 'writer';
      },
    ];
    for (const edit of edits) {
      const target = { url: a };
      const session = await listed(target);
      const own = (await session.client.listTools()).tools.map((tool) => tool.name).sort();
      expect(own).toEqual(['list_allowed_directories', 'read_text_file']);
      forge(session.transport.sessionId!, edit);
      // The next request lands on the replica that has never seen the session.
      target.url = b;
      const restored = (await session.client.listTools()).tools.map((tool) => tool.name).sort();
      expect(restored).toEqual(own);
      const written = await session
        .call('write_file', { path: join(workspace.directory, 'forged.txt'), content: 'x' })
        .catch((error: unknown) => ({
          isError: true,
          content: [{ type: 'text', text: String(error) }],
        }));
      expect(written.isError).toBe(true);
      expect(existsSync(join(workspace.directory, 'forged.txt'))).toBe(false);
      await session.client.close();
    }
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
    const why = await ready.text();
    expect(JSON.parse(why)).toMatchObject({ ready: false, detail: /the store does not answer/ });
    // Anyone who can reach the port may ask: where the store lives is not theirs to learn.
    expect(why).not.toContain(new URL(redis.url).port);
    expect(why).not.toMatch(/redis:|127\.0\.0\.1/);
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

  it('answers /readyz only to a Host it serves, as it does the MCP endpoint', async () => {
    const url = new URL(replicas[0]!.url!);
    const statusFor = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const request = httpRequest(
          { host: url.hostname, port: url.port, path: '/readyz', headers: { host } },
          (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
          },
        );
        request.on('error', reject);
        request.end();
      });
    expect(await statusFor(url.host)).toBe(200);
    // A page on a rebound name must not learn how the gateway and its store are.
    expect(await statusFor(`evil.example:${url.port}`)).toBe(403);
    expect(await statusFor(`localhost:1`)).toBe(403);
  });

  it('refuses a store URL that is not redis:// with invalid_config', () => {
    expect(() => createRedisStore({ url: 'http://127.0.0.1:1' })).toThrow(/redis:\/\/host:port/);
  });
});

describe('approval questions that time out on replicas', () => {
  let redis: TestRedis;
  let workspace: ReturnType<typeof tempWorkspace>;
  const replicas: StartedGateway[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    workspace = tempWorkspace();
    const config = parseGatewayConfig({
      mcpServers: { filesystem: filesystemServer(workspace.directory) },
      toolSearch: { enabled: 'off' },
      approval: { require: ['write_file'], fallback: 'deny', timeoutMs: 400 },
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

  it('closes a question nobody answered in time, denies its call, and refuses a late answer', async () => {
    const [a, b] = replicas.map((replica) => replica.url!) as [string, string];
    const asked: (string | number)[] = [];
    const session = await routedClient(
      TOKEN,
      (body) => (body.includes('"method"') ? a : b),
      async (_message, questionId) => {
        asked.push(questionId);
        await sleep(2_000);
        return 'allow-once';
      },
    );
    const path = join(workspace.directory, 'late.txt');
    const result = await session.call('write_file', { path, content: 'late' });
    expect(result.isError, textOf(result)).toBe(true);
    expect(textOf(result)).toMatch(/Nobody approved|did not answer|timed out/i);
    // The question was cancelled (the client was told, under the id it saw) and closed.
    const sessionId = session.transport.sessionId!;
    expect(asked).toHaveLength(1);
    expect(redis.cli(['HLEN', `tool-search:questions:${sessionId}`])).toBe('0');
    // An answer that comes late all the same is refused, on either replica, and nothing runs.
    for (const url of [a, b]) {
      const answer = await postRaw(url, TOKEN, sessionId, {
        jsonrpc: '2.0',
        id: asked[0],
        result: { action: 'accept', content: { decision: 'allow-once' } },
      });
      expect(answer.status).toBe(400);
      expect(answer.text).toMatch(/no open question of this session/);
    }
    await sleep(200);
    expect(existsSync(path)).toBe(false);
    await session.client.close();
  }, 30_000);
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
