import { startRedis, type TestRedis } from '@tool-search/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { untilReady } from '../__fixtures__/stores.js';
import { testGatewayStore } from '../testing/index.js';
import { openGatewayStore } from './open-store.js';
import { createRedisStore } from './redis-store.js';
import type { GatewayStore } from './types.js';

let redis: TestRedis;
const opened: GatewayStore[] = [];

beforeAll(async () => {
  redis = await startRedis({ appendOnly: false });
}, 30_000);
afterAll(async () => {
  await Promise.all(opened.map((store) => store.close()));
  await redis?.dispose();
});

async function ready(store: GatewayStore): Promise<GatewayStore> {
  opened.push(store);
  return untilReady(store);
}

testGatewayStore({
  name: 'testGatewayStore(redis)',
  open: ({ namespace }) => untilReady(createRedisStore({ url: redis.url, prefix: namespace })),
});

describe('createRedisStore', () => {
  it('is shared, and names where it is without the password', async () => {
    const store = createRedisStore({ url: 'redis://user:secret@127.0.0.1:1/0' });
    expect({ kind: store.kind, shared: store.shared }).toEqual({ kind: 'redis', shared: true });
    expect(store.location).toBe('redis://user:***@127.0.0.1:1/0');
    await store.close();
  });

  it('keeps about maxAuditRecords audit records', async () => {
    const store = await ready(
      createRedisStore({ url: redis.url, prefix: `cap${Math.random()}:`, maxAuditRecords: 5 }),
    );
    for (let index = 0; index < 400; index++) {
      await store.appendAudit({
        tool: `t${index}`,
        via: 'direct',
        decision: 'allowed',
        status: 'ok',
        startedAt: new Date(0).toISOString(),
        durationMs: 1,
        replica: 'test',
      });
    }
    // XADD MAXLEN ~ trims whole nodes of the stream: far fewer than 400 stay.
    const kept = await store.readAudit({ count: 1_000 });
    expect(kept.length).toBeLessThan(400);
    expect(kept.at(-1)?.record?.tool).toBe('t399');
  });
});

describe('openGatewayStore', () => {
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
