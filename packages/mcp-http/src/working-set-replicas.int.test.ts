import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startRedis, type TestRedis } from '@tool-search/services';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { tempWorkspace } from '../../mcp/src/__fixtures__/servers.js';
import { ALPHA_TOKEN, configOf, learned } from './__fixtures__/learning.js';
import { startReplicas } from './__fixtures__/replicas.js';
import type { StartedGateway } from './start.js';

const GATEWAY_TOKEN = 'working-set-replica-token-012345';

type Result = { isError?: boolean; structuredContent?: Record<string, unknown> };

// Two replicas on one Redis: the learner's store and the one-time claims are shared, so a
// search -> call pair carried by a handle is learned once, whichever replica sees the call.
describe('the working-set handle on replicas sharing Redis', () => {
  let redis: TestRedis;
  let workspace: ReturnType<typeof tempWorkspace>;
  let replicas: StartedGateway[] = [];
  const clients: Client[] = [];

  const connect = async (replica: StartedGateway) => {
    const client = new Client(
      { name: 'working-set-replicas', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(replica.url!), {
        requestInit: { headers: { authorization: `Bearer ${ALPHA_TOKEN}` } },
      }),
    );
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    redis = await startRedis();
    workspace = tempWorkspace();
    replicas = await startReplicas({
      config: configOf(workspace.directory),
      store: redis.url,
      token: GATEWAY_TOKEN,
    });
  }, 60_000);

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await Promise.all(replicas.map((replica) => replica.close()));
    await redis?.dispose();
    workspace?.cleanup();
  });

  it('learns a pair carried by a handle once, however often and wherever it is replayed', async () => {
    const [a, b] = replicas as [StartedGateway, StartedGateway];
    const [onA, onB] = [await connect(a), await connect(b)];
    const found = (await onA.callTool({
      name: 'tool_search',
      arguments: { query: 'file snarkle', limit: 20 },
    })) as Result;
    const handle = found.structuredContent?.['working_set'];
    expect(typeof handle).toBe('string');
    const callWith = (client: Client) =>
      client.callTool({
        name: 'tool_call',
        arguments: {
          name: 'get_file_info',
          arguments: { path: join(workspace.directory, 'notes.txt') },
          working_set: handle,
        },
      }) as Promise<Result>;

    // Every pair handed to a learner, counted or capped (a token is capped per term).
    const handed = () =>
      replicas.reduce(
        (sum, { server }) => sum + server.learner!.stats.recorded + server.learner!.stats.ignored,
        0,
      );
    const before = handed();
    expect((await callWith(onB)).isError ?? false).toBe(false);
    await vi.waitFor(async () =>
      expect((await learned(a, 'alpha'))['get_file_info']).toMatchObject({ snarkl: 1 }),
    );
    // The same handle again, on both replicas: the store has the pair's claim.
    expect((await callWith(onA)).isError ?? false).toBe(false);
    expect((await callWith(onB)).isError ?? false).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await learned(b, 'alpha'))['get_file_info']).toMatchObject({ snarkl: 1 });
    expect(handed()).toBe(before + 1);
  }, 60_000);
});
