import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempWorkspace } from '../../mcp/src/__fixtures__/servers.js';
import { connectHttpClient, type TestClient, textOf } from './__fixtures__/clients.js';
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

// Learning shared by replicas through Redis: learning-replicas.int.test.ts.
describe('learning from use through the gateway', () => {
  let workspace: ReturnType<typeof tempWorkspace>;
  let gateway: StartedGateway;
  const clients: TestClient[] = [];
  const connect = async (token: string) => {
    const client = await connectHttpClient(gateway.url!, { token });
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    workspace = tempWorkspace();
    gateway = await startGateway({
      config: configOf(workspace.directory),
      // The gateway's own token opens sessions of profile alpha too: a second client of it.
      profile: 'alpha',
      console: {},
      http: { host: '127.0.0.1', port: 0, token: ADMIN_TOKEN },
    });
    await gateway.ready();
  }, 60_000);

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await gateway?.close();
    workspace?.cleanup();
  });

  it('is off unless the config turns it on', async () => {
    const plain = await startGateway({
      config: configOf(workspace.directory, { learning: { enabled: false } }),
      http: { host: '127.0.0.1', port: 0, token: ADMIN_TOKEN },
    });
    try {
      expect(plain.server.learner).toBeUndefined();
    } finally {
      await plain.close();
    }
  }, 60_000);

  it('records a search followed by a successful call: through tool_call, a batch, and by name after tool_describe', async () => {
    const alpha = await connect(ALPHA_TOKEN);
    const file = join(workspace.directory, 'notes.txt');
    expect(await search(alpha, 'file zorblat')).toContain('get_file_info');
    const info = await alpha.call('tool_call', {
      name: 'get_file_info',
      arguments: { path: file },
    });
    expect(info.isError ?? false, textOf(info)).toBe(false);

    expect(await search(alpha, 'directory quibble')).toContain('list_directory');
    const batch = await alpha.call('tool_call', {
      calls: [{ name: 'list_directory', arguments: { path: workspace.directory } }],
    });
    expect(batch.isError ?? false, textOf(batch)).toBe(false);

    expect(await search(alpha, 'directory tree frobnic')).toContain('directory_tree');
    await alpha.call('tool_describe', { name: 'directory_tree' });
    const tree = await alpha.call('directory_tree', { path: workspace.directory });
    expect(tree.isError ?? false, textOf(tree)).toBe(false);

    const terms = await learned(gateway, 'alpha');
    expect(terms['get_file_info']).toMatchObject({ zorblat: 1 });
    expect(terms['list_directory']).toMatchObject({ quibbl: 1 });
    expect(terms['directory_tree']).toMatchObject({ frobnic: 1 });
    // Only analysed terms and counts: no query text, no arguments, no token.
    expect(JSON.stringify(terms)).not.toContain(workspace.directory);
    expect(gateway.server.learner!.stats.recorded).toBeGreaterThanOrEqual(3);
  }, 60_000);

  it("shows the learned terms on the console's Tools and Search pages", async () => {
    const api = (path: string, init?: RequestInit) =>
      fetch(new URL(`/console/${path}`, gateway.url), init);
    const signedIn = await api('api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: ADMIN_TOKEN }),
    });
    const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
    const tools = (await (await api('api/tools', { headers: { cookie } })).json()) as {
      tools: { name: string; learned?: { profile: string; terms: Record<string, number> }[] }[];
    };
    const info = tools.tools.find((tool) => tool.name === 'get_file_info');
    expect(info?.learned).toEqual([
      { profile: 'alpha', terms: expect.objectContaining({ zorblat: 1 }) },
    ]);
    const found = (await (
      await api('api/search?q=file%20zorblat&profile=alpha', { headers: { cookie } })
    ).json()) as { learning: boolean; hits: { name: string; learned: string[] }[] };
    expect(found.learning).toBe(true);
    expect(found.hits[0]).toMatchObject({ name: 'get_file_info', learned: ['file', 'zorblat'] });
  }, 60_000);

  it('never records a denied, failed or refused call', async () => {
    const alpha = await connect(ALPHA_TOKEN);
    const before = gateway.server.learner!.stats.recorded;
    expect(await search(alpha, 'move vorpal')).toContain('move_file');
    const moved = await alpha.call('tool_call', {
      name: 'move_file',
      arguments: { source: 'a', destination: 'b' },
    });
    expect(moved.isError).toBe(true);

    expect(await search(alpha, 'write file vorpal')).toContain('write_file');
    const written = await alpha.call('tool_call', {
      name: 'write_file',
      arguments: { path: join(workspace.directory, 'x.txt'), content: 'x' },
    });
    expect(written.isError).toBe(true);

    expect(await search(alpha, 'read text vorpal')).toContain('read_text_file');
    const failed = await alpha.call('tool_call', {
      name: 'read_text_file',
      arguments: { path: join(workspace.directory, 'no-such-file.txt') },
    });
    expect(failed.isError).toBe(true);

    const refused = await alpha.call('tool_call', { name: 'no_such_tool', arguments: {} });
    expect(refused.isError).toBe(true);

    const terms = await learned(gateway, 'alpha');
    for (const tool of ['move_file', 'write_file', 'read_text_file', 'no_such_tool']) {
      expect(terms[tool]?.['vorpal']).toBeUndefined();
    }
    expect(gateway.server.learner!.stats.recorded).toBe(before);
  }, 60_000);

  it("lifts the called tool in its profile's later searches, and leaves another profile's results byte-identical", async () => {
    // A session answers a repeated search from its memory: each search gets a new session.
    const betaBefore = await searchText(await connect(BETA_TOKEN), 'sizes snickersnee');
    const alpha = await connect(ALPHA_TOKEN);
    expect((await search(alpha, 'sizes snickersnee')).indexOf('get_file_info')).toBeGreaterThan(0);
    const called = await alpha.call('tool_call', {
      name: 'get_file_info',
      arguments: { path: join(workspace.directory, 'notes.txt') },
    });
    expect(called.isError ?? false).toBe(false);
    // A later session of the profile (another client of it) ranks the tool first.
    const admin = await connect(ADMIN_TOKEN);
    expect((await search(admin, 'sizes snickersnee'))[0]).toBe('get_file_info');
    expect(await searchText(await connect(BETA_TOKEN), 'sizes snickersnee')).toBe(betaBefore);
    expect(await learned(gateway, 'beta')).toEqual({});
  }, 60_000);

  it('caps what one client token gives a profile, so that it cannot steer it alone', async () => {
    const alpha = await connect(ALPHA_TOKEN);
    const file = join(workspace.directory, 'notes.txt');
    // One token points ten queries, twice each, at one tool.
    for (let round = 0; round < 2; round++) {
      for (let index = 0; index < 10; index++) {
        await search(alpha, `file jabberwock${'x'.repeat(index)}`);
        await alpha.call('tool_call', { name: 'read_text_file', arguments: { path: file } });
      }
    }
    const terms = (await learned(gateway, 'alpha'))['read_text_file'] ?? {};
    const total = Object.values(terms).reduce((sum, count) => sum + count, 0);
    // At most 1 per term and 8 over the tool's terms (core's default caps).
    expect(Math.max(...Object.values(terms))).toBeLessThanOrEqual(1);
    expect(total).toBeLessThanOrEqual(8);
    expect(total).toBeGreaterThan(0);
    // Another client of the profile still counts.
    const admin = await connect(ADMIN_TOKEN);
    await search(admin, 'file jabberwock');
    await admin.call('tool_call', { name: 'read_text_file', arguments: { path: file } });
    expect((await learned(gateway, 'alpha'))['read_text_file']?.['jabberwock']).toBe(2);
  }, 120_000);
});
