import { join } from 'node:path';
import { startRedis, type TestRedis } from '@tool-search/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempWorkspace } from '../../mcp/src/__fixtures__/servers.js';
import { connectHttpClient, type TestClient, until } from './__fixtures__/clients.js';
import {
  ADMIN_TOKEN,
  ALPHA_TOKEN,
  BETA_TOKEN,
  configOf,
  learned,
  search,
  searchText,
} from './__fixtures__/learning.js';
import { type StartedGateway, startGateway } from './start.js';

describe('learning from use on gateway replicas sharing Redis', () => {
  let redis: TestRedis;
  let workspace: ReturnType<typeof tempWorkspace>;
  const replicas: StartedGateway[] = [];
  const clients: TestClient[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    workspace = tempWorkspace();
    const config = configOf(workspace.directory);
    for (let index = 0; index < 2; index += 1) {
      replicas.push(
        await startGateway({
          config,
          store: redis.url,
          http: { host: '127.0.0.1', port: 0, token: ADMIN_TOKEN },
        }),
      );
    }
    await Promise.all(replicas.map((replica) => replica.ready()));
  }, 60_000);

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await Promise.all(replicas.map((replica) => replica.close()));
    await redis?.dispose();
    workspace?.cleanup();
  });

  it('shares what one replica learned with the other, in the profile only', async () => {
    const [one, two] = replicas as [StartedGateway, StartedGateway];
    const connect = async (replica: StartedGateway, token: string) => {
      const client = await connectHttpClient(replica.url!, { token });
      clients.push(client);
      return client;
    };
    const betaBefore = await searchText(await connect(two, BETA_TOKEN), 'file bandersnatch');
    const before = await search(await connect(two, ALPHA_TOKEN), 'file bandersnatch');
    expect(before.indexOf('get_file_info')).toBeGreaterThan(0);

    const onOne = await connectHttpClient(one.url!, { token: ALPHA_TOKEN });
    clients.push(onOne);
    expect(await search(onOne, 'file bandersnatch')).toContain('get_file_info');
    const called = await onOne.call('tool_call', {
      name: 'get_file_info',
      arguments: { path: join(workspace.directory, 'notes.txt') },
    });
    expect(called.isError ?? false).toBe(false);

    // The other replica has it as soon as Redis has it, and its sessions rank with it.
    await until(async () => (await learned(two, 'alpha'))['get_file_info']?.['bandersnatch']);
    expect((await search(await connect(two, ALPHA_TOKEN), 'file bandersnatch'))[0]).toBe(
      'get_file_info',
    );
    expect(await searchText(await connect(two, BETA_TOKEN), 'file bandersnatch')).toBe(betaBefore);

    // One token's cap holds across the replicas.
    for (const replica of replicas) {
      const client = await connect(replica, ALPHA_TOKEN);
      await search(client, 'file bandersnatch');
      await client.call('tool_call', {
        name: 'get_file_info',
        arguments: { path: join(workspace.directory, 'notes.txt') },
      });
    }
    expect((await learned(one, 'alpha'))['get_file_info']?.['bandersnatch']).toBe(1);

    // Cleared on one, gone on both.
    await two.server.learner!.clear('alpha');
    expect(await learned(one, 'alpha')).toEqual({});
  }, 60_000);
});
