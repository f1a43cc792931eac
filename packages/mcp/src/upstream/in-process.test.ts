import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf, until } from '../__fixtures__/clients.js';
import {
  changingInProcess,
  everythingInProcess,
  hangInProcess,
  malformedInProcess,
  slowInProcess,
} from '../__fixtures__/in-process.js';
import { loadGatewayConfig } from '../config/load.js';
import { parseGatewayConfig } from '../config/parse.js';
import { createUpstreamPool, UPSTREAM_ERROR_META_KEY, type UpstreamPool } from './pool.js';

const codeOf = (result: CallToolResult) => result._meta?.[UPSTREAM_ERROR_META_KEY];

// The transport seam: an entry of `mcpServers` may be `{ transport: () => Transport }`,
// and the pool treats it as it treats a stdio or HTTP server.
describe('createUpstreamPool with in-process servers', () => {
  let pool: UpstreamPool;
  let made = 0;
  const slow = slowInProcess();
  beforeAll(async () => {
    pool = createUpstreamPool(
      {
        mcpServers: {
          everything: everythingInProcess(),
          hang: hangInProcess(),
          malformed: malformedInProcess(),
          changing: { ...changingInProcess({ FIXTURE_PAGE_SIZE: '2' }), trusted: true },
          slow: {
            transport: () => {
              made += 1;
              return slow.transport();
            },
          },
        },
      },
      { connectTimeoutMs: 20_000, reconnect: { initialDelayMs: 20 } },
    );
    await pool.start();
  });
  afterAll(() => pool.close());
  const status = (name: string) => pool.status().find((entry) => entry.name === name)!;

  it("connects them and says 'in-process' as their transport", () => {
    expect(pool.status().map((entry) => [entry.name, entry.state, entry.transport])).toEqual([
      ['everything', 'ready', 'in-process'],
      ['hang', 'ready', 'in-process'],
      ['malformed', 'ready', 'in-process'],
      ['changing', 'ready', 'in-process'],
      ['slow', 'ready', 'in-process'],
    ]);
    expect(status('everything').toolCount).toBeGreaterThan(5);
    expect(status('malformed').rejectedTools.length).toBeGreaterThan(0);
  });

  it('lists (paginated) and calls through them, with their pins when trusted', async () => {
    expect(textOf(await pool.callTool('get-sum', { a: 2, b: 3 }))).toContain('5');
    expect(pool.tools().find((tool) => tool.name === 'pinned_status')?.alwaysLoad).toBe(true);
    expect(textOf(await pool.callTool('slow_echo', { message: 'hi' }))).toBe('slow echo: hi');
  });

  it('times a call out and cancels it upstream', async () => {
    const result = await pool.callTool('hang', {}, { timeoutMs: 200 });
    expect(codeOf(result)).toBe('upstream_timeout');
    const cancelled = await until(async () => {
      const count = Number(textOf(await pool.callTool('cancelled_count', {})));
      return count >= 1 ? count : undefined;
    });
    expect(cancelled).toBeGreaterThanOrEqual(1);
  });

  it('follows notifications/tools/list_changed', async () => {
    await pool.callTool('add_tool', { name: 'fresh_tool' });
    await until(() => pool.tools().find((tool) => tool.name === 'fresh_tool'));
    expect(textOf(await pool.callTool('fresh_tool', {}))).toBe('fresh_tool ran');
    await pool.callTool('remove_tools', {});
    await until(() => !pool.tools().some((tool) => tool.name === 'fresh_tool'));
  });

  it('restarts a server whose link closed with a new transport from the function', async () => {
    expect(made).toBe(1);
    const crashed = await pool.callTool('slow_crash', {});
    expect(codeOf(crashed)).toBe('upstream_failed');
    await until(() => status('slow').state === 'ready' && made === 2);
    expect(textOf(await pool.callTool('slow_starts', {}))).toBe('2');
  });
});

describe('an in-process entry that cannot connect', () => {
  it('fails with upstream_unavailable when its function throws, and keeps the rest', async () => {
    const pool = createUpstreamPool(
      { mcpServers: { broken: slowInProcess({ failOn: [1] }), fine: hangInProcess() } },
      { reconnect: false },
    );
    try {
      const [broken, fine] = await pool.start();
      expect(broken?.state).toBe('failed');
      expect(broken?.error).toMatch(/transport function threw.*start 1 fails on purpose/);
      expect(fine?.state).toBe('ready');
    } finally {
      await pool.close();
    }
  });
});

describe('parseGatewayConfig of an in-process entry', () => {
  const folder = mkdtempSync(join(tmpdir(), 'tool-search-in-process-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('takes a transport function given in code, with the common fields', () => {
    const entry = hangInProcess();
    const config = parseGatewayConfig({
      mcpServers: { local: { ...entry, maxConcurrency: 2, toolLoading: 'eager' } },
    });
    expect(config.mcpServers['local']).toMatchObject({
      type: 'in-process',
      transport: entry.transport,
      maxConcurrency: 2,
      disabled: false,
      trusted: false,
    });
    expect(config.toolSearch.toolsetLoading).toMatchObject({ 'mcp-local': 'eager' });
  });

  it('refuses a transport in a config file, saying it is given in code', async () => {
    const file = join(folder, 'gateway.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { local: { transport: 'memory' } } }));
    await expect(loadGatewayConfig(file)).rejects.toMatchObject({
      code: 'invalid_config',
      message: expect.stringMatching(/mcpServers\.local\.transport: .*never in a config file/),
    });
    writeFileSync(file, JSON.stringify({ mcpServers: { local: { type: 'in-process' } } }));
    await expect(loadGatewayConfig(file)).rejects.toMatchObject({ code: 'invalid_config' });
  });
});
