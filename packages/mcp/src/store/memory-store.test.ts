import { describe, expect, it } from 'vitest';
import { testGatewayStore } from '../testing/index.js';
import { createMemoryStore } from './memory-store.js';

testGatewayStore({ name: 'testGatewayStore(memory)', open: () => createMemoryStore() });

describe('createMemoryStore', () => {
  it('keeps the last maxAuditRecords audit records and the last eventsPerSession events', async () => {
    const store = createMemoryStore({ maxAuditRecords: 3, eventsPerSession: 2 });
    for (const tool of ['a', 'b', 'c', 'd']) {
      await store.appendAudit({
        tool,
        via: 'direct',
        decision: 'allowed',
        status: 'ok',
        startedAt: new Date(0).toISOString(),
        durationMs: 1,
        replica: 'test',
      });
    }
    expect((await store.readAudit({ count: 10 })).map((entry) => entry.record?.tool)).toEqual([
      'b',
      'c',
      'd',
    ]);
    const ids = [];
    for (const method of ['one', 'two', 'three']) {
      ids.push(await store.appendEvent('s', 'stream', { jsonrpc: '2.0', method }));
    }
    expect(await store.eventsAfter('s', ids[0]!)).toBeUndefined();
    expect((await store.eventsAfter('s', ids[1]!))?.events).toHaveLength(1);
  });

  it('is one process: not shared, in memory, never down', async () => {
    const store = createMemoryStore();
    expect({ kind: store.kind, shared: store.shared, location: store.location }).toEqual({
      kind: 'memory',
      shared: false,
      location: 'memory',
    });
    await store.close();
    await expect(store.ping()).resolves.toBeUndefined();
  });
});
