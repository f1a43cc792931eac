import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  parseToolSearchConfig,
  planActivation,
  type ToolSearchConfigInput,
} from '@tool-search/core';
import { afterAll, describe, expect, it } from 'vitest';
import { type TestClient, until, wrapClient } from '../__fixtures__/clients.js';
import { changingInProcess, slowInProcess } from '../__fixtures__/in-process.js';
import { tempWorkspace } from '../__fixtures__/servers.js';
import { filesystemInProcess } from '../__fixtures__/worker-server.js';
import { createUpstreamPool, type UpstreamPool } from '../upstream/pool.js';
import { createGatewayServer, type GatewayServer } from './server.js';
import type { GatewayServerOptions } from './types.js';

const workspace = tempWorkspace();
afterAll(() => {
  workspace.cleanup();
});

/** The deferrable tokens of the pool's tools now, as every session estimates them. */
const deferrableTokens = (pool: UpstreamPool) =>
  planActivation(pool.tools(), { config: { enabled: 'on' } }).deferrableTokens;

/** A client on an in-memory pair: its notifications and answers arrive in the order sent. */
async function connectClient(gateway: GatewayServer): Promise<TestClient> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await gateway.connect(serverSide);
  const client = wrapClient(new Client({ name: 'settle-test', version: '1.0.0' }));
  await client.client.connect(clientSide);
  return client;
}

function gatewayOver(
  pool: UpstreamPool,
  toolSearch: ToolSearchConfigInput,
  more: Partial<GatewayServerOptions>,
) {
  return createGatewayServer({
    pool,
    config: { toolSearch: parseToolSearchConfig(toolSearch) },
    ...more,
  });
}

describe('the first activation decision waits for the upstreams', () => {
  /**
   * A files server ready and a late one waiting for `go`; the gateway is created
   * once the files server is ready, with a threshold only both pass together.
   */
  async function withLateServer(
    _name: string,
    more: Partial<GatewayServerOptions>,
    run: (late: { client: TestClient; go: () => void }) => Promise<void>,
  ) {
    let go: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      go = resolve;
    });
    const pool = createUpstreamPool(
      {
        mcpServers: {
          files: filesystemInProcess(workspace.directory),
          late: slowInProcess({ ready: released }),
        },
      },
      { connectTimeoutMs: 30_000 },
    );
    const ready = pool.start();
    let gateway: GatewayServer | undefined;
    let client: TestClient | undefined;
    try {
      await until(() => pool.status().find((server) => server.name === 'files')?.state === 'ready');
      gateway = gatewayOver(
        pool,
        { threshold_tokens: deferrableTokens(pool) + 1 },
        { upstreamsReady: ready, ...more },
      );
      client = await connectClient(gateway);
      await run({ client, go });
    } finally {
      await client?.close();
      await gateway?.close();
      await ready.catch(() => {});
      await pool.close();
    }
  }

  it('shows a client that connects while a slow server starts the bridge once, not the whole list first', async () => {
    await withLateServer(
      'late',
      { settleDeadlineMs: 60_000, upstreamsWaitMs: 60_000 },
      async ({ client, go }) => {
        const listing = client.names();
        go();
        const first = await listing;
        expect(first).toContain('tool_search');
        expect(first).not.toContain('read_text_file');
        // No list_changed for the servers that arrived before the decision: nothing flipped.
        expect(client.listChanged()).toBe(0);
        expect(await client.names()).toEqual(first);
      },
    );
  }, 60_000);

  it('decides on what is there once the settle deadline passes, and tells the client when the rest arrives', async () => {
    await withLateServer('deadline', { settleDeadlineMs: 0 }, async ({ client, go }) => {
      expect(await client.names()).toContain('read_text_file');
      go();
      await until(() => client.listChanged() > 0, 30_000);
      expect(await client.names()).toContain('tool_search');
    });
  }, 60_000);

  it('refuses a settle deadline that is not a whole number of milliseconds', () => {
    const pool = { tools: () => [], callTool: async () => ({}), onToolsChanged: () => () => {} };
    expect(() => createGatewayServer({ pool: pool as never, settleDeadlineMs: -1 })).toThrowError(
      /settleDeadlineMs must be a whole number/,
    );
  });
});

/**
 * A server's tools that leave and come back (the changing fixture's `remove_tools` and
 * `add_tool`, each announced with list_changed) around a threshold between the two sizes.
 * Returns the lists the client saw after the bridge came, and the list_changed count then.
 */
async function flap(hysteresisPct: number) {
  const pool = createUpstreamPool({
    mcpServers: {
      files: filesystemInProcess(workspace.directory),
      changing: changingInProcess(),
    },
  });
  await pool.start();
  const gateway = gatewayOver(
    pool,
    { threshold_tokens: deferrableTokens(pool) + 1, hysteresis_pct: hysteresisPct },
    // The bridge definitions do not count the deferred tools: the list is byte-stable.
    { stableDescriptions: true },
  );
  const client = await connectClient(gateway);
  const has = (name: string) => pool.tools().some((tool) => tool.name === name);
  const list = async () => (await client.client.listTools()).tools;
  try {
    expect(await client.names()).not.toContain('tool_search');
    await client.call('add_tool', { name: 'extra_tool_one' });
    await until(() => client.listChanged() > 0);
    const active = await list();
    expect(active.map((tool) => tool.name)).toContain('tool_search');
    const seen = [active];
    const before = client.listChanged();
    await client.call('tool_call', { name: 'remove_tools', arguments: {} });
    await until(() => !has('extra_tool_one'));
    seen.push(await list());
    const bridged = seen[1]!.some((tool) => tool.name === 'tool_call');
    await client.call(bridged ? 'tool_call' : 'add_tool', {
      ...(bridged
        ? { name: 'add_tool', arguments: { name: 'extra_tool_one' } }
        : { name: 'extra_tool_one' }),
    });
    await until(() => has('extra_tool_one'));
    seen.push(await list());
    const names = seen.map((tools) => tools.map((tool) => tool.name));
    return { seen, names, notified: client.listChanged() - before };
  } finally {
    await client.close();
    await gateway.close();
    await pool.close();
  }
}

describe('the activation decision on list_changed (hysteresis)', () => {
  it('keeps the list byte for byte when a server’s tools leave and come back within the band', async () => {
    const { seen, notified } = await flap(20);
    expect(seen[1]).toEqual(seen[0]);
    expect(seen[2]).toEqual(seen[0]);
    expect(notified).toBe(0);
  }, 60_000);

  it('flips the list back and forth without a band (the case the band is for)', async () => {
    const { names, notified } = await flap(0);
    expect(names[1]).not.toContain('tool_search');
    expect(names[2]).toContain('tool_search');
    expect(notified).toBe(2);
  }, 60_000);
});
