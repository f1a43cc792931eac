// The runaway-search cap is one budget a session, whatever the route: tool_search, a
// program's tools.search and the draft catalog's tools/list { query } all spend it, and
// once tool_search is refused, the other routes are refused too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, type TestClient, textOf } from '../__fixtures__/clients.js';
import { everythingInProcess } from '../__fixtures__/in-process.js';
import { parseGatewayConfig } from '../config/parse.js';
import { createMemoryStore } from '../store/memory-store.js';
import { createUpstreamPool, type UpstreamPool } from '../upstream/pool.js';
import { createGatewayServer, type GatewayServer } from './server.js';

describe('the runaway-search cap of a session', () => {
  let pool: UpstreamPool;
  let gateway: GatewayServer;
  let client: TestClient;

  beforeAll(async () => {
    const config = parseGatewayConfig({
      mcpServers: { everything: { ...everythingInProcess(), trusted: true } },
      toolSearch: { enabled: 'on', runaway: { maxSearches: 3, windowMs: 600_000 } },
      programs: { enabled: true },
    });
    pool = createUpstreamPool(config);
    await pool.start();
    gateway = createGatewayServer({ pool, config, store: createMemoryStore() });
    client = await connectClient(gateway);
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await gateway?.close();
    await pool?.close();
  });

  it('counts a program’s searches and a tools/list query against the cap of tool_search', async () => {
    // One search of each route: the three the cap allows.
    const first = await client.call('tool_search', { query: 'add numbers' });
    expect(first.isError).toBeFalsy();
    const program = JSON.parse(
      textOf(
        await client.call('tool_program', {
          source: `return (await tools.search('echo a message')).length > 0`,
        }),
      ),
    ) as { result: unknown };
    expect(program.result).toBe(true);
    const listed = await client.client.listTools({ query: 'environment variables' } as never);
    expect(listed.tools.length).toBeGreaterThan(0);
    // The fourth, by any route, is refused.
    const refused = await client.call('tool_search', { query: 'sum two numbers' });
    expect(textOf(refused)).toContain('tool_search refused');
    const inProgram = JSON.parse(
      textOf(
        await client.call('tool_program', {
          source: `try { await tools.search('long running operation'); return 'searched'; } catch (error) { return error.code; }`,
        }),
      ),
    ) as { result: unknown };
    expect(inProgram.result).toBe('search_limit');
    await expect(client.client.listTools({ query: 'print environment' } as never)).rejects.toThrow(
      /tool_search refused/,
    );
  });
});
