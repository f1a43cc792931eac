import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, type TestClient, textOf } from '../__fixtures__/clients.js';
import { everythingInProcess } from '../__fixtures__/in-process.js';
import { tempWorkspace } from '../__fixtures__/servers.js';
import { filesystemInProcess, memoryInProcess } from '../__fixtures__/worker-server.js';
import { createGatewayServer, type GatewayServer } from '../gateway/server.js';
import { createUpstreamPool, type UpstreamPool } from '../upstream/pool.js';
import { parseGatewayConfig } from './parse.js';

const TOKEN = 'loading-token-0123456789abcdef';

describe('parseGatewayConfig: a server loading', () => {
  const servers = { a: { command: 'a' }, b: { url: 'http://127.0.0.1:9/mcp' } };

  it("adds each server's loading to toolSearch as its toolset, toolLoading before loading", () => {
    const config = parseGatewayConfig({
      mcpServers: {
        a: { ...servers.a, loading: 'eager' },
        b: { ...servers.b, toolLoading: 'deferred', loading: 'eager' },
      },
      toolSearch: { toolset_loading: { 'mcp-a': 'deferred', 'mcp-other': 'eager' } },
    });
    expect(config.toolSearch.toolsetLoading).toEqual({
      'mcp-a': 'eager',
      'mcp-b': 'deferred',
      'mcp-other': 'eager',
    });
  });

  it('leaves toolSearch alone when no server sets its loading', () => {
    const config = parseGatewayConfig({ mcpServers: servers });
    expect(config.toolSearch).not.toHaveProperty('toolsetLoading');
  });

  it('refuses a loading that is not eager, deferred or auto, naming the field', () => {
    expect(() =>
      parseGatewayConfig({ mcpServers: { a: { ...servers.a, toolLoading: 'lazy' } } }),
    ).toThrow(/mcpServers\.a\.toolLoading/);
  });
});

describe('the gateway with per-server loading (real MCP servers)', () => {
  const workspace = tempWorkspace();
  let pool: UpstreamPool;
  let gateway: GatewayServer;
  let client: TestClient;

  beforeAll(async () => {
    const config = parseGatewayConfig({
      mcpServers: {
        everything: everythingInProcess(),
        filesystem: { ...filesystemInProcess(workspace.directory), loading: 'eager' },
        memory: {
          ...memoryInProcess(join(workspace.directory, 'memory.jsonl')),
          toolLoading: 'deferred',
        },
      },
      // A window so wide that the threshold alone would defer nothing.
      toolSearch: { enabled: 'auto', threshold_pct: 10 },
    });
    pool = createUpstreamPool(config);
    await pool.start();
    gateway = createGatewayServer({ pool, config, contextWindow: 100_000_000 });
    client = await connectClient(gateway, { token: TOKEN });
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await gateway?.close();
    await pool?.close();
    workspace.cleanup();
  });

  it('lists the eager and auto servers, and puts the deferred one behind the bridge', async () => {
    const names = await client.names();
    expect(names).toEqual(expect.arrayContaining(['read_text_file', 'echo', 'tool_search']));
    expect(names).not.toContain('create_entities');
    const found = await client.bridge('tool_search', { query: 'create entities in the graph' });
    expect((found['matches'] as { name: string }[])[0]!.name).toBe('create_entities');
    expect(found['total_available']).toBe(
      pool.tools().filter((tool) => tool.toolset === 'mcp-memory').length,
    );
    const made = await client.call('tool_call', {
      name: 'create_entities',
      arguments: { entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote'] }] },
    });
    expect(made.isError).not.toBe(true);
    expect(textOf(made)).toContain('Ada');
  });

  it('answers a repeated search from memory and runs a listed tool called through tool_call', async () => {
    const again = await client.bridge('tool_search', { query: 'Create entity in graphs' });
    expect(again).toMatchObject({ already_searched: true });
    const echoed = await client.call('tool_call', { name: 'echo', arguments: { message: 'hi' } });
    expect(echoed.isError).not.toBe(true);
    expect(textOf(echoed)).toContain('hi');
  });
});
