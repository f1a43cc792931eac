import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { textOf, until } from '../__fixtures__/clients.js';
import { slowInProcess } from '../__fixtures__/in-process.js';
import { createUpstreamPool, UPSTREAM_ERROR_META_KEY } from './pool.js';

const codeOf = (result: CallToolResult) => result._meta?.[UPSTREAM_ERROR_META_KEY];

describe('createUpstreamPool retries of failed servers', () => {
  it('retries a given-up server when one of its tools is called, says so, and serves it again', async () => {
    // Start 1 serves; start 2 (the one reconnect allowed) fails; start 3 works.
    const pool = createUpstreamPool(
      { mcpServers: { flaky: slowInProcess({ failOn: [2] }) } },
      {
        connectTimeoutMs: 20_000,
        // No scheduled retry within the test: only the call can start one.
        reconnect: { initialDelayMs: 50, maxAttempts: 1, retryFailedMs: 0 },
      },
    );
    try {
      await pool.start();
      const crashed = await pool.callTool('slow_crash', {});
      expect(codeOf(crashed)).toBe('upstream_failed');
      await until(() => pool.status()[0]?.state === 'failed', 20_000);
      // Its last known tools stay listed, so that a call can reach the retry.
      expect(pool.tools().map((tool) => tool.name)).toContain('slow_echo');

      const meanwhile = await pool.callTool('slow_echo', { message: 'anyone?' });
      expect(codeOf(meanwhile)).toBe('upstream_unavailable');
      expect(textOf(meanwhile)).toMatch(
        /Server 'flaky' is down \(.*\); a reconnect attempt was started now\. 'slow_echo' was not called: try again in a few seconds\./,
      );

      await until(() => pool.status()[0]?.state === 'ready', 20_000);
      const back = await pool.callTool('slow_echo', { message: 'back' });
      expect(textOf(back)).toBe('slow echo: back');
      expect(textOf(await pool.callTool('slow_starts', {}))).toBe('3');
      expect(pool.status()[0]?.reconnectAttempts).toBe(0);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('retries a server that failed to start on a slow schedule until it comes up', async () => {
    const pool = createUpstreamPool(
      { mcpServers: { late: slowInProcess({ failOn: [1, 2] }) } },
      { connectTimeoutMs: 20_000, reconnect: { retryFailedMs: 300 } },
    );
    const changes: string[][] = [];
    pool.onToolsChanged((tools) => changes.push(tools.map((tool) => tool.name)));
    try {
      const [status] = await pool.start();
      expect(status?.state).toBe('failed');
      expect(pool.tools()).toEqual([]);
      await until(() => pool.status()[0]?.state === 'ready', 30_000);
      expect(changes.at(-1)).toContain('slow_echo');
      expect(textOf(await pool.callTool('slow_starts', {}))).toBe('3');
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('never retries when reconnects are off', async () => {
    const pool = createUpstreamPool(
      { mcpServers: { late: slowInProcess({ failOn: [1] }) } },
      { connectTimeoutMs: 20_000, reconnect: false },
    );
    try {
      const [status] = await pool.start();
      expect(status?.state).toBe('failed');
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(pool.status()[0]?.state).toBe('failed');
    } finally {
      await pool.close();
    }
  }, 30_000);
});
