import { afterEach, describe, expect, it } from 'vitest';
import { until } from '../__fixtures__/clients.js';
import { hostileInProcess, slowInProcess } from '../__fixtures__/in-process.js';
import { createUpstreamPool, type UpstreamPool } from './pool.js';

describe('pool.reload and pool.restart', () => {
  let pool: UpstreamPool | undefined;
  afterEach(async () => {
    await pool?.close();
  });

  it('adds, removes and restarts changed servers, leaving the others untouched', async () => {
    const hostile = hostileInProcess();
    pool = createUpstreamPool({ mcpServers: { hostile } });
    await pool.start();
    const servers = () => pool!.status().map((server) => [server.name, server.state]);
    const changes: string[] = [];
    pool.onProgress((event) => changes.push(`${event.server}:${event.kind}`));
    expect(await pool.reload({ hostile, slow: slowInProcess() })).toEqual({
      added: ['slow'],
      removed: [],
      changed: [],
    });
    expect(servers()).toEqual([
      ['hostile', 'ready'],
      ['slow', 'ready'],
    ]);
    // The unchanged server was not touched.
    expect(changes.filter((change) => change.startsWith('hostile:'))).toEqual([]);
    expect(pool.tools().some((tool) => tool.origin?.server === 'slow')).toBe(true);
    const slow = slowInProcess();
    expect(await pool.reload({ slow })).toEqual({
      added: [],
      removed: ['hostile'],
      changed: ['slow'],
    });
    expect(servers()).toEqual([['slow', 'ready']]);
    expect(pool.tools().every((tool) => tool.origin?.server === 'slow')).toBe(true);
    expect(await pool.reload({ slow: { ...slow, disabled: true } })).toMatchObject({
      changed: ['slow'],
    });
    expect(servers()).toEqual([['slow', 'disabled']]);
    expect(pool.tools()).toEqual([]);
  });

  it('restarts a healthy server on demand, and says when it cannot', async () => {
    pool = createUpstreamPool({ mcpServers: { slow: slowInProcess() } });
    await pool.start();
    const starts = async () =>
      JSON.parse(
        ((await pool!.callTool('slow_starts', {})).content as { text: string }[])[0]!.text,
      ) as unknown;
    const before = await starts();
    expect(await pool.restart('slow')).toBe('restarted');
    await until(async () => JSON.stringify(await starts()) !== JSON.stringify(before));
    expect(pool.status()[0]!.state).toBe('ready');
    expect(await pool.restart('nobody')).toBe('unknown');
    await pool.close();
    expect(await pool.restart('slow')).toBe('closed');
  });

  it('replaces the pins on a reload: a tool pinned or unpinned is listed anew', async () => {
    const slow = slowInProcess();
    pool = createUpstreamPool({ mcpServers: { slow } });
    await pool.start();
    const pinned = () => pool!.tools().filter((tool) => tool.alwaysLoad === true).length;
    expect(pinned()).toBe(0);
    let changes = 0;
    pool.onToolsChanged(() => {
      changes += 1;
    });
    await pool.reload({ slow }, { pins: { servers: ['slow'], tools: [] } });
    expect(pinned()).toBe(pool.tools().length);
    expect(changes).toBe(1);
    // The same servers without a `pins` key keep the pins.
    await pool.reload({ slow });
    expect(pinned()).toBe(pool.tools().length);
    await pool.reload({ slow }, { pins: undefined });
    expect(pinned()).toBe(0);
    expect(changes).toBe(2);
  });
});
