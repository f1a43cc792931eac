import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, type TestClient, textOf } from '../__fixtures__/clients.js';
import { slowServer } from '../__fixtures__/servers.js';
import { parseGatewayConfig } from '../config/parse.js';
import { BATCH_META_KEY } from '../tool-result/batch-result.js';
import { UPSTREAM_ERROR_META_KEY } from '../tool-result/error-result.js';
import { createUpstreamPool, type UpstreamPool } from '../upstream/pool.js';
import { createGatewayServer, type GatewayServer } from './server.js';

const TOKEN = 'deadline-token-0123456789abcdef';
const DEADLINE_MS = 1_500;

// A real stdio upstream with maxConcurrency 1 whose calls outlive their timeout: without
// a deadline, a batch of ten runs ten timeouts (and ten held slots) one after the other.
describe('the gateway: a tool_call batch has an overall deadline', () => {
  let pool: UpstreamPool;
  let gateway: GatewayServer;
  let client: TestClient;

  beforeAll(async () => {
    const config = parseGatewayConfig({
      mcpServers: { one: { ...slowServer(), maxConcurrency: 1, callTimeoutMs: 400 } },
      toolSearch: { enabled: 'on' },
    });
    pool = createUpstreamPool(config, { cancelGraceMs: 300 });
    await pool.start();
    gateway = createGatewayServer({ pool, config, batchDeadlineMs: DEADLINE_MS });
    client = await connectClient(gateway, { token: TOKEN });
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await gateway?.close();
    await pool?.close();
  });

  it('answers a batch of ten slow calls within its deadline, each call past it saying so', async () => {
    const calls = Array.from({ length: 10 }, () => ({
      name: 'slow_stubborn',
      arguments: { durationMs: 60_000 },
    }));
    const began = performance.now();
    const result = await client.client.callTool(
      { name: 'tool_call', arguments: { calls } },
      undefined,
      { timeout: 60_000 },
    );
    const elapsed = performance.now() - began;
    expect(elapsed).toBeLessThan(DEADLINE_MS + 1_500);
    const text = textOf(result as never);
    expect(text).toContain('Call 1 of 10 (slow_stubborn): error');
    // The first call ran into its own timeout (or, on a busy machine, the deadline).
    expect(text).toMatch(/within 400 ms|passed its deadline/);
    expect(text).toContain(
      `The call of 'slow_stubborn' was not run: the tool_call batch passed its deadline of ${DEADLINE_MS} ms`,
    );
    expect(text).toContain('Call 10 of 10 (slow_stubborn): error');
    // Each call keeps the code its own result had; all the same, the batch carries it too.
    const statuses = result._meta?.[BATCH_META_KEY] as { code?: string }[];
    expect(statuses.map((entry) => entry.code)).toEqual(Array(10).fill('upstream_timeout'));
    expect(result._meta?.[UPSTREAM_ERROR_META_KEY]).toBe('upstream_timeout');
  }, 60_000);
});

describe('createGatewayServer batchDeadlineMs', () => {
  it('rejects a deadline that is not a positive integer', () => {
    const pool = createUpstreamPool({ mcpServers: {} });
    expect(() => createGatewayServer({ pool, batchDeadlineMs: 0 })).toThrow(/batchDeadlineMs/);
    expect(() => createGatewayServer({ pool, batchDeadlineMs: Number.NaN })).toThrow(
      /batchDeadlineMs/,
    );
  });
});
