// Replicas on a shared Redis store: approval questions that time out, and tool review.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseGatewayConfig } from '@tool-search/mcp/config';
import { reviewKey } from '@tool-search/mcp/review';
import { createRedisStore } from '@tool-search/mcp/store/redis';
import { startRedis, type TestRedis } from '@tool-search/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesystemServer, tempWorkspace } from '../../mcp/src/__fixtures__/servers.js';
import { textOf } from './__fixtures__/clients.js';
import { postRaw, routedClient, sleep, startReplicas, TOKEN } from './__fixtures__/replicas.js';
import { type StartedGateway, startGateway } from './start.js';

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
    replicas.push(...(await startReplicas({ config, store: redis.url, token: TOKEN })));
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
