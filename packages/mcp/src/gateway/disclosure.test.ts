import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openInProcess } from '../__fixtures__/clients.js';
import {
  clientOn,
  FILES_TOKEN,
  profiles,
  refusal,
  specifyDraftCatalog,
} from '../__fixtures__/disclosure-spec.js';
import { tempWorkspace } from '../__fixtures__/servers.js';
import { filesystemInProcess, memoryInProcess } from '../__fixtures__/worker-server.js';
import { parseGatewayConfig } from '../config/parse.js';
import { createUpstreamPool, type UpstreamPool } from '../upstream/pool.js';
import { createGatewayServer, type GatewayServer } from './server.js';

// The draft over stdio, with the gateway spawned as a client does, is in
// disclosure-stdio.int.test.ts.
const workspace = tempWorkspace();
const mcpServers = {
  filesystem: filesystemInProcess(workspace.directory),
  memory: memoryInProcess(join(workspace.directory, 'memory.jsonl')),
};
afterAll(() => workspace.cleanup());

describe('the draft MCP catalog in process', () => {
  let pool: UpstreamPool;
  let gateway: GatewayServer;

  beforeAll(async () => {
    const config = parseGatewayConfig({ mcpServers, toolSearch: { enabled: 'on' }, profiles });
    pool = createUpstreamPool(config);
    await pool.start();
    gateway = createGatewayServer({ pool, config });
  }, 30_000);

  afterAll(async () => {
    await gateway?.close();
    await pool?.close();
  });

  specifyDraftCatalog(
    () => async (speaks) => clientOn(await openInProcess(gateway, { token: FILES_TOKEN }), speaks),
    workspace,
  );
});

describe('createGatewayServer with experimentalCatalog: false', () => {
  it('advertises nothing and answers tools/catalog with method not found', async () => {
    const pool = createUpstreamPool(parseGatewayConfig({ mcpServers: {} }));
    const gateway = createGatewayServer({ pool, experimentalCatalog: false });
    const client = await clientOn(await openInProcess(gateway), true);
    try {
      expect(client.getServerCapabilities()?.experimental).toBeUndefined();
      expect((await refusal(client, 'tools/catalog', {})).code).toBe(-32601);
    } finally {
      await client.close();
      await gateway.close();
    }
  });
});
