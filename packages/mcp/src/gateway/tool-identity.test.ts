import { join } from 'node:path';
import type { ApprovalAdapter, ApprovalRequest } from '@tool-search/hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { connectClient, type TestClient, textOf, until } from '../__fixtures__/clients.js';
import { hostileInProcess } from '../__fixtures__/in-process.js';
import { tempWorkspace } from '../__fixtures__/servers.js';
import { memoryInProcess } from '../__fixtures__/worker-server.js';
import { parseGatewayConfig } from '../config/parse.js';
import { createUpstreamPool, type UpstreamPool } from '../upstream/pool.js';
import { createGatewayServer, type GatewayServer } from './server.js';

const TOKEN = 'identity-token-0123456789abcdef';

interface Running {
  pool: UpstreamPool;
  gateway: GatewayServer;
  client: TestClient;
}

const running: Running[] = [];
const workspaces: { cleanup: () => void }[] = [];

afterEach(async () => {
  for (const { client, gateway, pool } of running.splice(0)) {
    await client.close().catch(() => {});
    await gateway.close().catch(() => {});
    await pool.close().catch(() => {});
  }
  for (const workspace of workspaces.splice(0)) workspace.cleanup();
});

/**
 * A gateway over Streamable HTTP in front of the real memory server and the hostile
 * fixture, with the given policy sections; tool search is off so that every tool is
 * called by its exposed name.
 */
async function startGateway(
  sections: Record<string, unknown>,
  options: {
    hostileModes?: string[];
    asked?: ApprovalRequest[];
    approval?: (pool: UpstreamPool) => ApprovalAdapter;
  } = {},
): Promise<Running> {
  const workspace = tempWorkspace();
  workspaces.push(workspace);
  const config = parseGatewayConfig({
    mcpServers: {
      memory: memoryInProcess(join(workspace.directory, 'memory.jsonl')),
      hostile: hostileInProcess(options.hostileModes ?? ['squat']),
    },
    toolSearch: { enabled: 'off' },
    ...sections,
  });
  const pool = createUpstreamPool(config);
  await pool.start();
  const asked = options.asked;
  const gateway = createGatewayServer({
    pool,
    config,
    ...(options.approval ? { approval: options.approval(pool) } : {}),
    ...(asked
      ? {
          approval: {
            name: 'recording',
            request(request: ApprovalRequest) {
              asked.push(request);
              return 'allow-session' as const;
            },
          },
        }
      : {}),
  });
  const client = await connectClient(gateway, { token: TOKEN });
  const entry = { pool, gateway, client };
  running.push(entry);
  return entry;
}

async function seed(client: TestClient): Promise<void> {
  const result = await client.call('create_entities', {
    entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }],
  });
  expect(result.isError).toBeFalsy();
}

async function entityNames(client: TestClient): Promise<string[]> {
  const graph = JSON.parse(textOf(await client.call('read_graph')));
  return (graph.entities as { name: string }[]).map((entity) => entity.name);
}

const DELETE_ADA = { entityNames: ['Ada'] };

describe('policies bind to the real tool, not to its exposed name', () => {
  it('denies the renamed memory_delete_entities under deny: ["delete_*"], and the data stays', async () => {
    const { client } = await startGateway({ guardrails: { deny: ['delete_*'] } });
    const names = await client.names();
    expect(names).toContain('memory_delete_entities');
    expect(names).not.toContain('delete_entities');
    await seed(client);

    const result = await client.call('memory_delete_entities', DELETE_ADA);

    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('denied by policy');
    expect(await entityNames(client)).toEqual(['Ada']);
  }, 60_000);

  it('matches server/name patterns: memory/delete_* denies the memory tool and not the squatter', async () => {
    const { client } = await startGateway({ guardrails: { deny: ['memory/delete_*'] } });
    await seed(client);

    const denied = await client.call('memory_delete_entities', DELETE_ADA);
    const squatter = await client.call('hostile_delete_entities');

    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toContain('denied by policy');
    expect(squatter.isError).toBeFalsy();
    expect(textOf(squatter)).toContain('hostile delete_entities ran');
    expect(await entityNames(client)).toEqual(['Ada']);
  }, 60_000);

  it('asks before the renamed tool under approval.require.tools: ["delete_entities"] (fallback deny)', async () => {
    const { client } = await startGateway({
      approval: { require: { tools: ['delete_entities'] }, fallback: 'deny' },
    });
    await seed(client);

    const result = await client.call('memory_delete_entities', DELETE_ADA);

    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('needs approval');
    expect(await entityNames(client)).toEqual(['Ada']);
  }, 60_000);

  it('hands the approval adapter the renamed call with the tool of its real origin', async () => {
    const asked: ApprovalRequest[] = [];
    const { client } = await startGateway(
      { approval: { require: { tools: ['memory/delete_entities'] } } },
      { asked },
    );
    await seed(client);

    await client.call('memory_delete_entities', { entityNames: ['nobody'] });

    expect(asked.map((request) => request.call.name)).toEqual(['memory_delete_entities']);
    expect(asked[0]?.tool?.origin).toEqual({ server: 'memory', name: 'delete_entities' });
  }, 60_000);

  it('keeps denying when the squatter appears later through tools/list_changed', async () => {
    const { client } = await startGateway(
      { guardrails: { deny: ['delete_*'] } },
      { hostileModes: [] },
    );
    await seed(client);
    expect(await client.names()).toContain('delete_entities');
    const before = await client.call('delete_entities', DELETE_ADA);
    expect(before.isError).toBe(true);

    await client.call('hostile_squat', { name: 'delete_entities' });
    await until(async () => (await client.names()).includes('memory_delete_entities'));
    const after = await client.call('memory_delete_entities', DELETE_ADA);

    expect(after.isError).toBe(true);
    expect(textOf(after)).toContain('denied by policy');
    expect(await entityNames(client)).toEqual(['Ada']);
  }, 60_000);

  it('keeps a session approval through a rename, and the squatter does not inherit it', async () => {
    const asked: ApprovalRequest[] = [];
    const { client } = await startGateway(
      { approval: { require: { tools: ['delete_entities'] } } },
      { hostileModes: [], asked },
    );
    await seed(client);
    await client.call('delete_entities', { entityNames: ['nobody'] });
    expect(asked.map((request) => request.call.name)).toEqual(['delete_entities']);

    await client.call('hostile_squat', { name: 'delete_entities' });
    await until(async () => (await client.names()).includes('memory_delete_entities'));
    const renamed = await client.call('memory_delete_entities', { entityNames: ['nobody'] });
    const squatter = await client.call('hostile_delete_entities');

    expect(renamed.isError).toBeFalsy();
    expect(asked.map((request) => request.call.name)).toEqual([
      'delete_entities',
      'hostile_delete_entities',
    ]);
    expect(textOf(squatter)).toContain('hostile delete_entities ran');
    expect(await entityNames(client)).toEqual(['Ada']);
  }, 60_000);

  it('exposes every pooled tool with its origin, and pins by server/name', async () => {
    const { pool } = await startGateway({ pins: { tools: ['memory/delete_*'] } });
    const tools = new Map(pool.tools().map((tool) => [tool.name, tool]));

    expect(tools.get('memory_delete_entities')?.origin).toEqual({
      server: 'memory',
      name: 'delete_entities',
    });
    expect(tools.get('hostile_delete_entities')?.origin).toEqual({
      server: 'hostile',
      name: 'delete_entities',
    });
    expect(tools.get('memory_delete_entities')?.alwaysLoad).toBe(true);
    expect(tools.get('hostile_delete_entities')?.alwaysLoad).toBeUndefined();
    expect(tools.get('read_graph')?.alwaysLoad).toBeUndefined();
  }, 60_000);

  it('refuses to run another tool than the one approved when the name changes hands meanwhile', async () => {
    const { client } = await startGateway(
      { approval: { require: { tools: ['memory/delete_entities'] } } },
      {
        approval: (pool) => ({
          name: 'slow-person',
          async request(): Promise<'allow-once'> {
            // While the person thinks, the squatter takes the exposed name that was asked about.
            await pool.callTool('hostile_squat', { name: 'memory_delete_entities' });
            await until(() => pool.lookup('memory_delete_entities')?.server === 'hostile');
            return 'allow-once';
          },
        }),
      },
    );
    await seed(client);

    const result = await client.call('memory_delete_entities', DELETE_ADA);
    const calls = JSON.parse(textOf(await client.call('hostile_calls')));

    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('now names another tool (hostile/memory_delete_entities)');
    expect(result._meta?.['tool-search/error']).toBe('tool_changed');
    expect(calls['memory_delete_entities']).toBeUndefined();
    expect(await entityNames(client)).toEqual(['Ada']);
  }, 60_000);
});
