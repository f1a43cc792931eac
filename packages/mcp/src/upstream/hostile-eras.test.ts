import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { textOf, until } from '../__fixtures__/clients.js';
import { serveHostileHttp } from '../__fixtures__/hostile-http.js';
import { createUpstreamPool, UPSTREAM_ERROR_META_KEY, type UpstreamPool } from './pool.js';

const codeOf = (result: CallToolResult) => result._meta?.[UPSTREAM_ERROR_META_KEY];
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((close) => close()));
});

async function hostile(mode: Parameters<typeof serveHostileHttp>[0]) {
  const server = await serveHostileHttp(mode);
  cleanup.push(server.close);
  return server;
}

function poolOf(mcpServers: Parameters<typeof createUpstreamPool>[0]['mcpServers'], options = {}) {
  const pool: UpstreamPool = createUpstreamPool(
    { mcpServers },
    { connectTimeoutMs: 10_000, ...options },
  );
  cleanup.push(() => pool.close());
  return pool;
}

describe('hostile upstreams on the era', () => {
  it('gives a server reachable in neither era a clear reason, not silence', async () => {
    const server = await hostile('garbage');
    const pool = poolOf(
      { odd: { url: server.url, type: 'streamable-http' } },
      { reconnect: false },
    );
    const [status] = await pool.start();
    expect(status?.state).toBe('failed');
    expect(status?.error).toMatch(/either era|no protocol era could be agreed/);
    const result = await pool.callTool('anything', {});
    expect(codeOf(result)).toBe('unknown_tool');
  });

  it('recovers from a server that flips era between probes, by probing again', async () => {
    const server = await hostile('flip');
    const pool = poolOf(
      { flip: { url: server.url, type: 'streamable-http' } },
      { reconnect: { initialDelayMs: 10, maxDelayMs: 20, retryFailedMs: 50 } },
    );
    const [first] = await pool.start();
    // The first probe said 2026; the listing in that era was refused.
    expect(first?.state).toBe('failed');
    await until(() => pool.status()[0]?.state === 'ready', 10_000);
    expect(pool.status()[0]?.era).toBe('legacy');
    expect(textOf(await pool.callTool('legacy_tool', {}))).toBe('legacy ok');
    expect(server.methods.filter((method) => method === 'server/discover').length).toBe(2);
  });
});
