import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf } from '../__fixtures__/clients.js';
import { slowInProcess } from '../__fixtures__/in-process.js';
import { parseGatewayConfig } from '../config/parse.js';
import { createUpstreamPool, UPSTREAM_ERROR_META_KEY, type UpstreamPool } from './pool.js';

const codeOf = (result: CallToolResult) => result._meta?.[UPSTREAM_ERROR_META_KEY];

describe('createUpstreamPool call timeouts', () => {
  let pool: UpstreamPool;

  beforeAll(async () => {
    pool = createUpstreamPool(
      {
        mcpServers: {
          // Its own timeout (1 s) and maximum (4 s); the pool's default is far longer.
          quick: { ...slowInProcess(), callTimeoutMs: 1_000, maxCallTimeMs: 4_000 },
          plain: slowInProcess(),
        },
      },
      { connectTimeoutMs: 20_000, callTimeoutMs: 30_000 },
    );
    await pool.start();
  }, 30_000);

  afterAll(async () => {
    await pool.close();
  });

  it('lets a call that reports progress outlive its timeout, and forwards the progress', async () => {
    const updates: number[] = [];
    // Progress every 200 ms for 2.5 s: two and a half times the server's 1 s timeout.
    const result = await pool.callTool(
      'quick_slow_progress',
      { intervalMs: 200, durationMs: 2_500 },
      { onProgress: (progress) => updates.push(progress.progress) },
    );
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toMatch(/^done after \d+ updates$/);
    expect(updates.length).toBeGreaterThan(3);
    // The same with a per-call timeout, and no listener of the caller's own.
    const plain = await pool.callTool(
      'plain_slow_progress',
      { intervalMs: 200, durationMs: 2_500 },
      { timeoutMs: 1_000 },
    );
    expect(textOf(plain)).toMatch(/^done after \d+ updates$/);
  }, 20_000);

  it("ends a silent call at the server's own timeout and says so", async () => {
    const result = await pool.callTool('quick_slow_silent', {});
    expect(codeOf(result)).toBe('upstream_timeout');
    expect(textOf(result)).toContain(
      "Server 'quick' did not answer the call of 'quick_slow_silent' within 1000 ms (no result and no progress for that long)",
    );
  }, 20_000);

  it('ends a call that reports progress forever at its maximum and says so', async () => {
    const result = await pool.callTool('quick_slow_progress', {
      intervalMs: 100,
      durationMs: 60_000,
    });
    expect(codeOf(result)).toBe('upstream_timeout');
    expect(textOf(result)).toContain(
      "Server 'quick' did not finish the call of 'quick_slow_progress' within its maximum of 4000 ms",
    );
  }, 30_000);

  it("prefers the server's timeout to the gateway's default, and a call's own to both", async () => {
    // The gateway server passes its callTimeoutMs as defaultTimeoutMs: the server's 1 s wins.
    const serverWins = await pool.callTool('quick_slow_silent', {}, { defaultTimeoutMs: 20_000 });
    expect(textOf(serverWins)).toContain('within 1000 ms');
    // A server without its own timeout takes the default.
    const defaultApplies = await pool.callTool('plain_slow_silent', {}, { defaultTimeoutMs: 700 });
    expect(textOf(defaultApplies)).toContain('within 700 ms');
    // An explicit per-call timeout wins over everything.
    const callWins = await pool.callTool('quick_slow_silent', {}, { timeoutMs: 500 });
    expect(textOf(callWins)).toContain('within 500 ms');
  }, 30_000);
});

describe('parseGatewayConfig call limits', () => {
  it('reads callTimeoutMs, maxCallTimeMs and maxConcurrency on stdio and http entries', () => {
    const config = parseGatewayConfig({
      mcpServers: {
        memory: { command: 'node', callTimeoutMs: 5_000, maxConcurrency: 1, cancelGraceMs: 2_000 },
        docs: { url: 'https://example.com/mcp', maxCallTimeMs: 120_000 },
      },
    });
    expect(config.mcpServers['memory']).toMatchObject({
      callTimeoutMs: 5_000,
      maxConcurrency: 1,
      cancelGraceMs: 2_000,
    });
    expect(config.mcpServers['docs']).toMatchObject({ maxCallTimeMs: 120_000 });
  });

  it('refuses a limit that is not a positive integer, naming the field', () => {
    expect(() =>
      parseGatewayConfig({ mcpServers: { memory: { command: 'node', maxConcurrency: 0 } } }),
    ).toThrow(/mcpServers\.memory\.maxConcurrency/);
    expect(() =>
      parseGatewayConfig({ mcpServers: { docs: { url: 'https://x.dev', callTimeoutMs: 'soon' } } }),
    ).toThrow(/mcpServers\.docs\.callTimeoutMs/);
  });
});
