import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, type TestClient, textOf } from '../__fixtures__/clients.js';
import { hangInProcess, slowInProcess } from '../__fixtures__/in-process.js';
import { parseGatewayConfig } from '../config/parse.js';
import { createMemoryStore } from '../store/memory-store.js';
import type { GatewayStore } from '../store/types.js';
import { createUpstreamPool, type UpstreamPool } from '../upstream/pool.js';
import { createGatewayServer, type GatewayServer } from './server.js';

const NARROW = 'refusal-narrow-token-0123456789';

// Two real upstreams; the 'narrow' profile sees only the first: 'hang' is out of its scope.
describe('the gateway audits calls refused as out of the session scope', () => {
  let pool: UpstreamPool;
  let gateway: GatewayServer;
  let client: TestClient;
  let store: GatewayStore;

  beforeAll(async () => {
    const config = parseGatewayConfig({
      mcpServers: { one: slowInProcess(), two: hangInProcess() },
      toolSearch: { enabled: 'on' },
      profiles: { narrow: { enabledToolsets: ['mcp-one'], token: NARROW } },
      programs: { enabled: true },
    });
    pool = createUpstreamPool(config);
    await pool.start();
    store = createMemoryStore();
    gateway = createGatewayServer({ pool, config, store });
    client = await connectClient(gateway, { token: NARROW });
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await gateway?.close();
    await pool?.close();
  });

  it('writes an audit record, with the name and the reason and no arguments, for each refusal', async () => {
    const bridged = await client.call('tool_call', {
      name: 'hang',
      arguments: { secret: 'do not keep' },
    });
    expect(textOf(bridged)).toContain("'hang' is not available in this session");
    const direct = await client.call('hang', { secret: 'do not keep' });
    expect(direct.isError).toBe(true);
    const batch = await client.call('tool_call', {
      calls: [{ name: 'hang', arguments: { secret: 'do not keep' } }],
    });
    expect(batch.isError).toBe(true);

    const trail = await store.readAudit({ count: 10 });
    const records = trail.map((entry) => entry.record);
    expect(records).toHaveLength(3);
    for (const record of records) {
      expect(record).toMatchObject({
        tool: 'hang',
        decision: 'denied',
        status: 'denied',
        deniedBy: { kind: 'scope', name: 'session-scope' },
        reason: expect.stringContaining("'hang' is not available in this session"),
        profile: 'narrow',
      });
      expect(JSON.stringify(record)).not.toContain('do not keep');
    }
    expect(records.map((record) => record?.via)).toEqual(['bridge', 'direct', 'bridge']);
  }, 30_000);

  it('writes the program id with a refusal made inside a program', async () => {
    const before = (await store.readAudit({ count: 100 })).length;
    const answer = await client.call('tool_program', {
      source: `try { await tools.call('hang', { secret: 'do not keep' }); } catch (error) { return error.status; }`,
    });
    const program = JSON.parse(textOf(answer)) as { result: unknown; programId: string };
    expect(program.result).toBe('denied');
    const trail = await store.readAudit({ count: 100 });
    expect(trail).toHaveLength(before + 1);
    const refusal = trail.map((entry) => entry.record).find((record) => record?.via === 'program');
    expect(refusal).toMatchObject({
      tool: 'hang',
      via: 'program',
      programId: program.programId,
      deniedBy: { kind: 'scope', name: 'session-scope' },
    });
  }, 30_000);
});
