import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { tempWorkspace } from '../../../mcp/src/__fixtures__/servers.js';
import { textOf } from '../__fixtures__/clients.js';
import { ALPHA_TOKEN, BETA_TOKEN, configOf, learned } from '../__fixtures__/learning.js';
import { type StartedGateway, startGateway } from '../start.js';

const MODERN = '2026-07-28';
const GATEWAY_TOKEN = 'working-set-gateway-token-01234';

type Result = {
  content: { type: string; text?: string }[];
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
};

// Two replicas of one config (the handle's key comes from the operator's tokens), each
// with its own store and learner: what one replica learns, it learns from the handle alone.
describe('the working-set handle over HTTP, with a v2 client pinned to 2026-07-28', () => {
  let workspace: ReturnType<typeof tempWorkspace>;
  const replicas: StartedGateway[] = [];
  const clients: Client[] = [];

  const connect = async (replica: StartedGateway, token: string) => {
    const client = new Client(
      { name: 'working-set-test', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: MODERN } } },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(replica.url!), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    clients.push(client);
    return client;
  };
  const call = async (client: Client, name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as unknown as Result;

  beforeAll(async () => {
    workspace = tempWorkspace();
    for (let index = 0; index < 2; index++) {
      const replica = await startGateway({
        config: configOf(workspace.directory),
        http: { host: '127.0.0.1', port: 0, token: GATEWAY_TOKEN },
      });
      await replica.ready();
      replicas.push(replica);
    }
  }, 60_000);

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await Promise.all(replicas.map((replica) => replica.close()));
    workspace?.cleanup();
  });

  it('lists working_set on the bridge tools, answers it on a search, and any replica takes it back', async () => {
    const [a, b] = replicas as [StartedGateway, StartedGateway];
    const onA = await connect(a, ALPHA_TOKEN);
    const search = (await onA.listTools()).tools.find((tool) => tool.name === 'tool_search');
    expect(search?.inputSchema.properties).toHaveProperty('working_set');

    const found = await call(onA, 'tool_search', { query: 'file zorblat', limit: 20 });
    const handle = found.structuredContent?.['working_set'];
    expect(typeof handle, textOf(found as never)).toBe('string');
    expect(textOf(found as never)).toContain('get_file_info');

    // The call lands on replica B, which never saw the search: the handle carries it.
    const onB = await connect(b, ALPHA_TOKEN);
    const called = await call(onB, 'tool_call', {
      name: 'get_file_info',
      arguments: { path: join(workspace.directory, 'notes.txt') },
      working_set: handle,
    });
    expect(called.isError ?? false, textOf(called as never)).toBe(false);
    expect(textOf(called as never)).toContain('"working_set"');
    await vi.waitFor(async () =>
      expect((await learned(b, 'alpha'))['get_file_info']).toMatchObject({ zorblat: 1 }),
    );
    expect(await learned(a, 'alpha')).toEqual({});

    // Another credential presenting it gets an error result it can act on, nothing of alpha's.
    const beta = await connect(b, BETA_TOKEN);
    const stolen = await call(beta, 'tool_search', { query: 'file', working_set: handle });
    expect(stolen.isError).toBe(true);
    expect(textOf(stolen as never)).toMatch(/issued to another client.*without working_set/);
    expect(JSON.stringify(stolen)).not.toMatch(/zorblat|get_file_info/);
  }, 60_000);
});
