import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { textOf, until } from '../__fixtures__/clients.js';
import { fixtureServer } from '../__fixtures__/servers.js';
import { createUpstreamPool, UPSTREAM_ERROR_META_KEY, type UpstreamPool } from './pool.js';

const codeOf = (result: CallToolResult) => result._meta?.[UPSTREAM_ERROR_META_KEY];
const folder = mkdtempSync(join(tmpdir(), 'eras-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const pools: UpstreamPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});

/** A spawn log: one line per process a fixture started. */
function spawnLog(name: string) {
  const file = join(folder, `${name}.log`);
  writeFileSync(file, '');
  return { file, count: () => readFileSync(file, 'utf8').split('\n').filter(Boolean).length };
}

function poolOf(mcpServers: Parameters<typeof createUpstreamPool>[0]['mcpServers'], options = {}) {
  const pool = createUpstreamPool(
    { mcpServers },
    { connectTimeoutMs: 30_000, reconnect: { initialDelayMs: 20, maxDelayMs: 50 }, ...options },
  );
  pools.push(pool);
  return pool;
}

describe('stdio upstreams of either era', () => {
  it('lists and calls a stdio server that serves 2026-07-28 only; its era is decided once', async () => {
    const spawns = spawnLog('modern');
    const pool = poolOf({
      modern: fixtureServer('modern-stdio-server.mjs', { SPAWN_LOG: spawns.file }),
    });
    const [status] = await pool.start();
    expect(status).toMatchObject({ state: 'ready', transport: 'stdio', era: 'modern' });
    expect(pool.tools().map((tool) => tool.name)).toEqual(['shout', 'crash', 'wait']);
    expect(textOf(await pool.callTool('shout', { message: 'hey' }))).toBe('HEY!');
    // It refused the 2025 handshake, so it was started once more (after the first process
    // was gone) and probed in place: two starts, never a sibling copy for the probe.
    expect(spawns.count()).toBe(2);
    // A restart adopts the cached era: one start, no handshake to refuse.
    await pool.callTool('crash', {});
    await until(() => pool.status()[0]?.state === 'ready' && spawns.count() === 3);
    expect(textOf(await pool.callTool('shout', { message: 'again' }))).toBe('AGAIN!');
    expect(spawns.count()).toBe(3);
  }, 60_000);

  it('passes a cancelled call on to a 2026-07-28 stdio server', async () => {
    const stderr: string[] = [];
    const pool = poolOf(
      { modern: fixtureServer('modern-stdio-server.mjs') },
      { onStderr: (_server: string, text: string) => stderr.push(text) },
    );
    await pool.start();
    const controller = new AbortController();
    const call = pool.callTool('wait', {}, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 200));
    controller.abort();
    expect(codeOf(await call)).toBe('aborted');
    await until(() => stderr.join('').includes('wait cancelled'));
  }, 60_000);

  it('starts a 2025 stdio server once per connect, and a restart probes no more', async () => {
    const spawns = spawnLog('legacy');
    const pool = poolOf({
      legacy: fixtureServer('counted-legacy-server.mjs', { SPAWN_LOG: spawns.file }),
    });
    const [status] = await pool.start();
    expect(status).toMatchObject({ state: 'ready', era: 'legacy' });
    expect(spawns.count()).toBe(1);
    expect(textOf(await pool.callTool('echo', { message: 'a' }))).toBe('crash-fixture echo: a');
    // The crash tool ends the process; the pool restarts it with the cached verdict.
    await pool.callTool('crash', {});
    await until(() => pool.status()[0]?.state === 'ready' && spawns.count() === 2);
    expect(textOf(await pool.callTool('echo', { message: 'b' }))).toBe('crash-fixture echo: b');
    expect(spawns.count()).toBe(2);
  }, 60_000);

  it('never probes a 2025 server that exits on any request before initialize', async () => {
    const spawns = spawnLog('exit-on-probe');
    const pool = poolOf({
      strict: fixtureServer('exit-on-probe-server.mjs', { SPAWN_LOG: spawns.file }),
    });
    const [status] = await pool.start();
    expect(status).toMatchObject({ state: 'ready', era: 'legacy' });
    expect(spawns.count()).toBe(1);
    await pool.callTool('crash', {});
    await until(() => pool.status()[0]?.state === 'ready' && spawns.count() === 2);
    expect(textOf(await pool.callTool('echo', { message: 'c' }))).toBe('crash-fixture echo: c');
    expect(spawns.count()).toBe(2);
  }, 60_000);

  it('speaks 2025 to a stdio server of both eras (on stdio the 2025 era lacks nothing)', async () => {
    const spawns = spawnLog('dual');
    const pool = poolOf({
      dual: fixtureServer('modern-stdio-server.mjs', { LEGACY: 'serve', SPAWN_LOG: spawns.file }),
    });
    const [status] = await pool.start();
    expect(status).toMatchObject({ state: 'ready', era: 'legacy' });
    expect(textOf(await pool.callTool('shout', { message: 'x' }))).toBe('X!');
    expect(spawns.count()).toBe(1);
  }, 60_000);
});
