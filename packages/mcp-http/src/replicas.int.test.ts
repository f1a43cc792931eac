import { existsSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { parseGatewayConfig } from '@tool-search/mcp/config';
import { createRedisStore } from '@tool-search/mcp/store/redis';
import { startRedis, type TestRedis } from '@tool-search/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesystemServer, tempWorkspace } from '../../mcp/src/__fixtures__/servers.js';
import { textOf } from './__fixtures__/clients.js';
import {
  postRaw,
  READER_TOKEN,
  roundRobinClient,
  routedClient,
  sleep,
  startReplicas,
  TOKEN,
  WRITER_TOKEN,
} from './__fixtures__/replicas.js';
import type { StartedGateway } from './start.js';

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
    replicas.push(...(await startReplicas({ config, store: redis.url, token: TOKEN })));
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
