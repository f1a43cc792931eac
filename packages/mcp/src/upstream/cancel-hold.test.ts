import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { textOf } from '../__fixtures__/clients.js';
import { slowInProcess } from '../__fixtures__/in-process.js';
import { createUpstreamPool, UPSTREAM_ERROR_META_KEY, type UpstreamPool } from './pool.js';

const codeOf = (result: CallToolResult) => result._meta?.[UPSTREAM_ERROR_META_KEY];

// An in-process upstream whose `slow_stubborn` keeps running after it is cancelled, and
// whose `slow_running` says how many other calls the server runs at that moment.
describe('createUpstreamPool maxConcurrency after a timeout', () => {
  let pool: UpstreamPool | undefined;
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });

  it('keeps the slot of a timed-out call until the upstream answers it, so the next call never overlaps it', async () => {
    pool = createUpstreamPool(
      { mcpServers: { one: { ...slowInProcess(), maxConcurrency: 1, callTimeoutMs: 300 } } },
      { connectTimeoutMs: 20_000, cancelGraceMs: 20_000 },
    );
    await pool.start();
    const began = performance.now();
    const first = await pool.callTool('slow_stubborn', { durationMs: 1_500, answerLate: true });
    expect(codeOf(first)).toBe('upstream_timeout');
    // The upstream still runs the first call: the second waits for its late answer.
    const second = await pool.callTool('slow_running', {}, { timeoutMs: 15_000 });
    expect(textOf(second)).toBe('0');
    expect(performance.now() - began).toBeGreaterThanOrEqual(1_400);
    // The late answer freed the slot: no restart was needed.
    expect(textOf(await pool.callTool('slow_starts', {}))).toBe('1');
  }, 30_000);

  it('restarts an upstream that does not finish a cancelled call within the grace, and only then frees the slot', async () => {
    pool = createUpstreamPool(
      {
        mcpServers: {
          one: { ...slowInProcess(), maxConcurrency: 1, callTimeoutMs: 300, cancelGraceMs: 500 },
        },
      },
      { connectTimeoutMs: 20_000, reconnect: { initialDelayMs: 10 } },
    );
    await pool.start();
    const first = await pool.callTool('slow_stubborn', { durationMs: 60_000 });
    expect(codeOf(first)).toBe('upstream_timeout');
    const second = await pool.callTool('slow_running', {}, { timeoutMs: 15_000 });
    // Never beside the stubborn call: it ran on the restarted server.
    expect(textOf(second)).toBe('0');
    expect(textOf(await pool.callTool('slow_starts', {}))).toBe('2');
    expect(pool.status()[0]?.state).toBe('ready');
  }, 30_000);
});
