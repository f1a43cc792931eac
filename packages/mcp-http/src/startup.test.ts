import { parseToolSearchConfig } from '@tool-search/core';
import { createGatewayServer, createUpstreamPool } from '@tool-search/mcp';
import { describe, expect, it } from 'vitest';
import { slowInProcess } from '../../mcp/src/__fixtures__/in-process.js';
import { connectHttpClient, textOf, until } from './__fixtures__/clients.js';
import { listenGatewayHttp } from './http/http.js';

/** A gateway that serves before its pool is ready; `late` starts once `go` is called. */
async function startEarly(_name: string, upstreamsWaitMs: number) {
  let go: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    go = resolve;
  });
  const pool = createUpstreamPool(
    { mcpServers: { late: slowInProcess({ ready: released }) } },
    { connectTimeoutMs: 30_000 },
  );
  const ready = pool.start();
  const gateway = createGatewayServer({
    pool,
    config: { toolSearch: parseToolSearchConfig(false) },
    upstreamsReady: ready,
    upstreamsWaitMs,
  });
  const listener = await listenGatewayHttp(gateway, { port: 0 });
  const client = await connectHttpClient(listener.url);
  return {
    client,
    go,
    async close() {
      await client.close();
      await gateway.close();
      await pool.close();
    },
  };
}

describe('createGatewayServer before its upstreams are ready', () => {
  it('sends list_changed to a client connected before a slow upstream, which then sees its tools', async () => {
    const early = await startEarly('changed', 100);
    try {
      expect(await early.client.names()).not.toContain('slow_echo');
      const before = early.client.listChanged();
      early.go();
      await until(() => early.client.listChanged() > before, 20_000);
      expect(await early.client.names()).toContain('slow_echo');
      expect(textOf(await early.client.call('slow_echo', { message: 'late' }))).toBe(
        'slow echo: late',
      );
    } finally {
      await early.close();
    }
  }, 60_000);

  it('holds an early tools/list until the first connect round is over, within upstreamsWaitMs', async () => {
    const early = await startEarly('held', 60_000);
    try {
      const listing = early.client.names();
      const first = await Promise.race([
        listing,
        new Promise((resolve) => setTimeout(() => resolve('still waiting'), 500)),
      ]);
      expect(first).toBe('still waiting');
      early.go();
      expect(await listing).toContain('slow_echo');
    } finally {
      await early.close();
    }
  }, 60_000);
});
