import { startRedis, type TestRedis } from '@tool-search/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryStore } from './memory-store.js';
import { openGatewayStore } from './open-store.js';
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
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      await store.ping();
      return store;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

const record = (tool: string): StoredAuditRecord => ({
  tool,
  via: 'direct',
  viaBridge: false,
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

  it('delivers a published message to its subscribers', async () => {
    const store = await open();
    const heard: unknown[] = [];
    const stop = await store.subscribe((routed) => heard.push(routed));
    await store.publish({ sessionId: 's', message: { jsonrpc: '2.0', id: 1, result: {} } });
    const deadline = Date.now() + 5_000;
    while (heard.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(heard).toEqual([{ sessionId: 's', message: { jsonrpc: '2.0', id: 1, result: {} } }]);
    await stop();
  });

  it('shares the accepted tool fingerprints', async () => {
    const store = await open();
    await store.putFingerprints(new Map([['fs/read', 'sha256:1']]));
    expect(await store.getFingerprints()).toEqual(new Map([['fs/read', 'sha256:1']]));
  });
});

describe('openGatewayStore', () => {
  it('opens memory by default and refuses what is neither memory nor a Redis URL', () => {
    expect(openGatewayStore(undefined).kind).toBe('memory');
    expect(() => openGatewayStore('postgres://x')).toThrow(/'memory' or a redis:\/\//);
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
