import { execFileSync } from 'node:child_process';
import type { StandIn } from '@tool-search/mcp/testing';
import type { TestRedis } from '@tool-search/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestReplica } from './__fixtures__/replicas.js';
import { runCli } from './__fixtures__/run.js';
import { connectGateway, consoleApi, loginAsPerson, printed } from './__fixtures__/sign-in.js';
import {
  type SignInReplicaWorld,
  startSignInReplicaWorld,
} from './__fixtures__/sign-in-replicas.js';

const TOKEN = 'sign-in-replicas-gateway-token-01';

describe('sign-ins shared by replicas on Redis, encrypted', () => {
  let world: SignInReplicaWorld;
  let standIn: StandIn;
  let redis: TestRedis;
  let config: string;
  let env: Record<string, string>;
  let replicas: TestReplica[];
  const urlOf = (replica: TestReplica) => world.urlOf(replica);

  beforeAll(async () => {
    world = await startSignInReplicaWorld('sign-in-replicas', (mcpUrl, store) => ({
      mcpServers: { docs: { url: mcpUrl, auth: 'oauth' } },
      store,
      console: { enabled: true },
    }));
    ({ standIn, redis, config, env, replicas } = world);
  }, 60_000);

  afterAll(() => world?.close());

  it('login stores the sign-in in Redis, encrypted: a dump of the store holds no token', async () => {
    const login = await loginAsPerson(['docs', '--config', config], env);
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toContain('Signed in to docs');
    const dump = execFileSync('redis-cli', ['-u', redis.url, 'hgetall', 'tool-search:sign-ins'], {
      encoding: 'utf8',
    });
    expect(dump).toContain('docs');
    expect(dump).toMatch(/v1\./);
    for (const token of standIn.issued) expect(dump).not.toContain(token);
  });

  it('refuses a Redis store without the key, saying how to make one', async () => {
    const run = await runCli(['login', 'docs', '--config', config], {
      env: { ...env, TOOL_SEARCH_SIGN_IN_KEY: '' },
    });
    printed.push(run.stdout, run.stderr);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('TOOL_SEARCH_SIGN_IN_KEY');
  });

  it('two replicas use the one sign-in; a refresh on one serves the other', async () => {
    // The replicas read the key from their environment, as an operator's unit would set it.
    await world.startReplicas(2, TOKEN);
    const [first, second] = await Promise.all(
      replicas.map((replica) => connectGateway(urlOf(replica), TOKEN)),
    );
    const names = (await first!.client.listTools()).tools.map((tool) => tool.name);
    const whoami = names.find((name) => name.endsWith('whoami'))!;
    expect(await first!.call(whoami)).toEqual({ text: 'you are signed in', isError: false });
    expect(await second!.call(whoami)).toEqual({ text: 'you are signed in', isError: false });
    standIn.expireAccessTokens();
    const before = standIn.hits.get('/token') ?? 0;
    expect(await first!.call(whoami)).toEqual({ text: 'you are signed in', isError: false });
    expect(standIn.hits.get('/token')).toBe(before + 1);
    // The second replica reads the refreshed token from the store: no refresh of its own.
    expect(await second!.call(whoami)).toEqual({ text: 'you are signed in', isError: false });
    expect(standIn.hits.get('/token')).toBe(before + 1);
    await Promise.all([first!.client.close(), second!.client.close()]);
  });

  it('the console shows the sign-in state and expiry, and its API, the activity and the audit trail hold no token', async () => {
    const api = await consoleApi(urlOf(replicas[0]!), TOKEN);
    const signIns = await api('sign-ins');
    expect(signIns.status).toBe(200);
    const body = JSON.parse(signIns.text) as { signIns: Record<string, unknown>[] };
    expect(body.signIns).toEqual([
      expect.objectContaining({
        server: 'docs',
        kind: 'oauth',
        state: 'signed-in',
        refreshable: true,
        issuer: standIn.issuer,
        expiresAt: expect.any(Number),
      }),
    ]);
    for (const path of ['activity', 'upstreams', 'overview', 'tools', 'sessions']) {
      expect((await api(path)).status, path).toBe(200);
    }
    const audit = await runCli(['audit', '--store', redis.url, '--count', '1000'], { env });
    printed.push(audit.stdout, audit.stderr);
    expect(audit.stdout).toContain('whoami');
    const inspect = await runCli(['inspect', '--config', config], { env });
    printed.push(inspect.stdout, inspect.stderr);
    expect(inspect.stdout).toMatch(/docs: signed in at/);
    for (const replica of replicas) printed.push(replica.stderr());
    const all = printed.join('\n');
    expect(standIn.issued.length).toBeGreaterThan(2);
    for (const token of standIn.issued) expect(all).not.toContain(token);
  });
});
