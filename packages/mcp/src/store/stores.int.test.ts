import { startRedis, type TestRedis } from '@tool-search/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { untilReady } from '../__fixtures__/stores.js';
import { createMemoryStore } from './memory-store.js';
import { loadRedisStoreEntry, openGatewayStore } from './open-store.js';
import { createRedisStore } from './redis-store.js';
import type { GatewayStore, StoredAuditRecord } from './types.js';

let redis: TestRedis;
const opened: GatewayStore[] = [];

beforeAll(async () => {
  redis = await startRedis();
}, 30_000);
afterAll(async () => {
  await Promise.all(opened.map((store) => store.close()));
  await redis?.dispose();
});

async function ready(store: GatewayStore): Promise<GatewayStore> {
  opened.push(store);
  return untilReady(store);
}

const record = (tool: string): StoredAuditRecord => ({
  tool,
  via: 'direct',
  decision: 'allowed',
  status: 'ok',
  startedAt: new Date().toISOString(),
  durationMs: 1,
  replica: 'test',
});

const kinds: [string, () => Promise<GatewayStore>][] = [
  ['memory', async () => createMemoryStore()],
  ['redis', () => ready(createRedisStore({ url: redis.url, prefix: `t${Math.random()}:` }))],
];

describe.each(kinds)('the %s store', (_kind, open) => {
  it('keeps a session, its approvals and its events until the session is deleted', async () => {
    const store = await open();
    await store.putSession(
      { id: 's1', principal: 'p', initialize: { a: 1 }, createdAt: 1 },
      60_000,
    );
    expect((await store.getSession('s1'))?.initialize).toEqual({ a: 1 });
    expect(await store.touchSession('s1', 'p', 60_000)).toBe(true);
    expect(await store.hasApproval('s1', 'fs/write')).toBe(false);
    await store.rememberApproval('s1', 'fs/write');
    expect(await store.hasApproval('s1', 'fs/write')).toBe(true);
    const first = await store.appendEvent('s1', 'stream-a', { jsonrpc: '2.0', method: 'one' });
    await store.appendEvent('s1', 'stream-b', { jsonrpc: '2.0', method: 'other' });
    const second = await store.appendEvent('s1', 'stream-a', { jsonrpc: '2.0', method: 'two' });
    const after = await store.eventsAfter('s1', first);
    expect(after?.streamId).toBe('stream-a');
    expect(after?.events).toEqual([{ id: second, message: { jsonrpc: '2.0', method: 'two' } }]);
    expect(await store.eventsAfter('s1', 'no-such-event')).toBeUndefined();
    await store.deleteSession('s1', 'p');
    expect(await store.getSession('s1')).toBeUndefined();
    expect(await store.hasApproval('s1', 'fs/write')).toBe(false);
    expect(await store.touchSession('s1', 'p', 60_000)).toBe(false);
  });

  it('admits sessions up to the caps of a principal and in all', async () => {
    const store = await open();
    const limits = { maxSessions: 3, maxPerPrincipal: 2, idleMs: 60_000 };
    expect(await store.admitSession('a1', 'a', limits)).toEqual({ ok: true });
    expect(await store.admitSession('a2', 'a', limits)).toEqual({ ok: true });
    expect(await store.admitSession('a3', 'a', limits)).toEqual({
      ok: false,
      scope: 'principal',
      held: 2,
    });
    expect(await store.admitSession('b1', 'b', limits)).toEqual({ ok: true });
    expect(await store.admitSession('c1', 'c', limits)).toMatchObject({ ok: false, scope: 'all' });
    await store.deleteSession('a1', 'a');
    expect(await store.admitSession('c1', 'c', limits)).toEqual({ ok: true });
  });

  it('keeps the audit trail in order and hands a follower the records written after it', async () => {
    const store = await open();
    await store.appendAudit(record('one'));
    await store.appendAudit(record('two'));
    const last = await store.readAudit({ count: 10 });
    expect(last.map((entry) => entry.record?.tool)).toEqual(['one', 'two']);
    const following = store.readAudit({ after: last[1]!.id, count: 10, blockMs: 5_000 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await store.appendAudit(record('three'));
    expect((await following).map((entry) => entry.record?.tool)).toEqual(['three']);
  });

  it('hands an answer to the one replica that asked its question, once, and refuses any other', async () => {
    const store = await open();
    await store.putSession({ id: 's', principal: 'p', initialize: {}, createdAt: 1 }, 60_000);
    await store.putSession({ id: 't', principal: 'p', initialize: {}, createdAt: 1 }, 60_000);
    const heard: Record<string, unknown[]> = { one: [], two: [] };
    const stops = await Promise.all(
      Object.keys(heard).map((replica) =>
        store.subscribe(replica, (routed) => heard[replica]!.push(routed)),
      ),
    );
    await store.openQuestion({ sessionId: 's', questionId: 'q-1', replica: 'one' });
    await store.openQuestion({ sessionId: 's', questionId: 'q-2', replica: 'two' });
    const answer = (id: string | number, sessionId = 's') => ({
      sessionId,
      message: { jsonrpc: '2.0' as const, id, result: { decision: id } },
    });
    // Another session, a number id, an id never asked: nothing is delivered.
    expect(await store.routeAnswer(answer('q-1', 't'))).toBe('unknown');
    expect(await store.routeAnswer(answer(0))).toBe('unknown');
    expect(await store.routeAnswer(answer('q-3'))).toBe('unknown');
    expect(await store.routeAnswer(answer('q-2'))).toBe('delivered');
    expect(await store.routeAnswer(answer('q-1'))).toBe('delivered');
    expect(await store.routeAnswer(answer('q-1'))).toBe('unknown');
    const deadline = Date.now() + 5_000;
    while (heard['one']!.length + heard['two']!.length < 2 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(heard).toEqual({ one: [answer('q-1')], two: [answer('q-2')] });
    // A question closed, and one of a replica that stopped listening.
    await store.openQuestion({ sessionId: 's', questionId: 'q-4', replica: 'one' });
    await store.closeQuestion('s', 'q-4');
    expect(await store.routeAnswer(answer('q-4'))).toBe('unknown');
    await store.openQuestion({ sessionId: 's', questionId: 'q-5', replica: 'gone' });
    expect(await store.routeAnswer(answer('q-5'))).toBe('orphaned');
    // The questions end with their session.
    await store.openQuestion({ sessionId: 's', questionId: 'q-6', replica: 'one' });
    await store.deleteSession('s', 'p');
    expect(await store.routeAnswer(answer('q-6'))).toBe('unknown');
    for (const stop of stops) await stop();
  });

  it('shares the accepted tool fingerprints', async () => {
    const store = await open();
    await store.putFingerprints(new Map([['fs/read', 'sha256:1']]));
    expect(await store.getFingerprints()).toEqual(new Map([['fs/read', 'sha256:1']]));
  });

  it('stores 5,000 accepted tool fingerprints and replaces them all at once', async () => {
    const store = await open();
    const many = new Map(
      Array.from(
        { length: 5_000 },
        (_, index) => [`big/tool_${index}`, `sha256:${index}`] as const,
      ),
    );
    await store.putFingerprints(many);
    expect(await store.getFingerprints()).toEqual(many);
    // A smaller list replaces the whole of the old one, nothing of it stays behind.
    const fewer = new Map([...many].slice(0, 10));
    await store.putFingerprints(fewer);
    expect(await store.getFingerprints()).toEqual(fewer);
  });
});

describe('openGatewayStore', () => {
  it('opens memory by default and refuses what is neither memory nor a Redis URL', async () => {
    expect((await openGatewayStore(undefined)).kind).toBe('memory');
    await expect(openGatewayStore('postgres://x')).rejects.toThrow(/'memory' or a redis:\/\//);
  });

  it('opens a Redis URL with the Redis store, loaded on first use', async () => {
    const store = await openGatewayStore(redis.url);
    opened.push(store);
    expect(store.kind).toBe('redis');
  });

  it('fails a command with store_unavailable, naming the store, while Redis is down', async () => {
    const store = await ready(createRedisStore({ url: redis.url }));
    await redis.stop();
    try {
      await expect(store.getSession('x')).rejects.toMatchObject({ code: 'store_unavailable' });
      await expect(store.ping()).rejects.toThrow(
        /store \(redis:\/\/127\.0\.0\.1:\d+\) is unavailable/,
      );
    } finally {
      await redis.start();
    }
    await ready(store);
    expect(await store.getSession('x')).toBeUndefined();
  }, 30_000);
});

describe('loadRedisStoreEntry', () => {
  it('names the package to install when @redis/client is missing', async () => {
    const missing = Object.assign(
      new Error("Cannot find package '@redis/client' imported from /app/store/redis/index.js"),
      { code: 'ERR_MODULE_NOT_FOUND' },
    );
    await expect(loadRedisStoreEntry(() => Promise.reject(missing))).rejects.toMatchObject({
      code: 'store_unavailable',
      message: expect.stringContaining('npm install @redis/client'),
      data: { field: 'store' },
    });
  });

  it('passes any other failure on as it is', async () => {
    const other = new Error('boom');
    await expect(loadRedisStoreEntry(() => Promise.reject(other))).rejects.toBe(other);
  });
});
