import { describe, expect, it } from 'vitest';
import { loadRedisStoreEntry, openGatewayStore } from './open-store.js';

// The stores' contract is checked by testGatewayStore (memory-store.test.ts and
// redis-store.int.test.ts); here, how a store is chosen and loaded.

describe('openGatewayStore', () => {
  it('opens memory by default and refuses what is neither memory nor a Redis URL', async () => {
    expect((await openGatewayStore(undefined)).kind).toBe('memory');
    await expect(openGatewayStore('postgres://x')).rejects.toThrow(/'memory' or a redis:\/\//);
  });
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
