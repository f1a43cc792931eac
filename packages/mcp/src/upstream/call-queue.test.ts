import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { textOf } from '../__fixtures__/clients.js';
import { slowInProcess } from '../__fixtures__/in-process.js';
import { memoryInProcess } from '../__fixtures__/worker-server.js';
import { createCallQueue } from './call-queue.js';
import { createUpstreamPool, UPSTREAM_ERROR_META_KEY, type UpstreamServerInput } from './pool.js';

const codeOf = (result: CallToolResult) => result._meta?.[UPSTREAM_ERROR_META_KEY];
const folder = mkdtempSync(join(tmpdir(), 'tool-search-queue-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const WRITES = 50;

/** 50 concurrent create_entities through a pool, then the names read back. */
async function concurrentWrites(server: UpstreamServerInput) {
  const pool = createUpstreamPool({ mcpServers: { memory: server } }, { connectTimeoutMs: 20_000 });
  try {
    await pool.start();
    const results = await Promise.all(
      Array.from({ length: WRITES }, (_, index) =>
        pool.callTool('create_entities', {
          entities: [{ name: `entity-${index}`, entityType: 'test', observations: [`#${index}`] }],
        }),
      ),
    );
    const graph = JSON.parse(textOf(await pool.callTool('read_graph', {}))) as {
      entities: { name: string }[];
    };
    const names = new Set(graph.entities.map((entity) => entity.name));
    const lost = Array.from({ length: WRITES }, (_, index) => `entity-${index}`).filter(
      (name) => !names.has(name),
    );
    return { errors: results.filter((result) => result.isError).length, lost };
  } finally {
    await pool.close();
  }
}

describe('createUpstreamPool maxConcurrency', () => {
  it('loses none of 50 concurrent writes to the real memory server with maxConcurrency 1', async () => {
    const queued = await concurrentWrites({
      ...memoryInProcess(join(folder, 'queued.jsonl')),
      maxConcurrency: 1,
    });
    expect(queued).toEqual({ errors: 0, lost: [] });

    // Without the queue the server itself loses writes; measured and reported, not asserted.
    const open = await concurrentWrites(memoryInProcess(join(folder, 'open.jsonl')));
    console.log(
      `memory server, ${WRITES} concurrent writes: maxConcurrency 1 lost 0; no limit lost ${open.lost.length} (${open.errors} error results)`,
    );
  }, 120_000);

  it('ends a call that waits in the queue longer than its timeout without sending it, and says so', async () => {
    const pool = createUpstreamPool(
      { mcpServers: { busy: { ...slowInProcess(), maxConcurrency: 1, callTimeoutMs: 800 } } },
      { connectTimeoutMs: 20_000 },
    );
    try {
      await pool.start();
      // The first call holds the one slot with progress, far past the second's timeout.
      const holder = pool.callTool('slow_progress', { intervalMs: 100, durationMs: 2_500 });
      const waiting = await pool.callTool('slow_echo', { message: 'queued' });
      expect(codeOf(waiting)).toBe('upstream_timeout');
      expect(textOf(waiting)).toMatch(
        /The call of 'slow_echo' waited \d+ ms in the queue of server 'busy' \(maxConcurrency 1, 0 calls ahead\) without being sent; the call timeout is 800 ms/,
      );
      expect(textOf(await holder)).toMatch(/^done after/);
      expect(textOf(await pool.callTool('slow_echo', { message: 'free' }))).toBe('slow echo: free');
    } finally {
      await pool.close();
    }
  }, 30_000);

  it('lets a queued call be cancelled, and keeps the order of the others', async () => {
    const pool = createUpstreamPool(
      { mcpServers: { busy: { ...slowInProcess(), maxConcurrency: 1 } } },
      { connectTimeoutMs: 20_000 },
    );
    try {
      await pool.start();
      const finished: string[] = [];
      const holder = pool
        .callTool('slow_progress', { intervalMs: 100, durationMs: 800 })
        .then(() => finished.push('holder'));
      const controller = new AbortController();
      const cancelled = pool.callTool(
        'slow_echo',
        { message: 'gone' },
        { signal: controller.signal },
      );
      const later = [1, 2, 3].map((index) =>
        pool.callTool('slow_echo', { message: String(index) }).then((result) => {
          finished.push(textOf(result));
        }),
      );
      controller.abort();
      expect(codeOf(await cancelled)).toBe('aborted');
      await Promise.all([holder, ...later]);
      // Queued behind the holder, in arrival order; the cancelled call never ran.
      expect(finished).toEqual(['holder', 'slow echo: 1', 'slow echo: 2', 'slow echo: 3']);
    } finally {
      await pool.close();
    }
  }, 30_000);
});

describe('createCallQueue', () => {
  it('refuses a limit that is not a positive integer', () => {
    expect(() => createCallQueue(0)).toThrow(RangeError);
    expect(() => createCallQueue(1.5)).toThrow(/maxConcurrency must be a positive integer/);
  });
});
