import { execFileSync } from 'node:child_process';
import type { StandIn } from '@tool-search/mcp/testing';
import type { TestRedis } from '@tool-search/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestReplica } from './__fixtures__/replicas.js';
import { connectGateway, loginAsPerson, printed } from './__fixtures__/sign-in.js';
import {
  type SignInReplicaWorld,
  startSignInReplicaWorld,
} from './__fixtures__/sign-in-replicas.js';

const TOKEN = 'per-person-replicas-gateway-01234';
const ALICE = 'alice-per-person-replicas-0123456';
const BOB = 'bob-per-person-replicas-012345678';

describe("each profile's sign-in shared by replicas on Redis, encrypted (perProfile)", () => {
  let world: SignInReplicaWorld;
  let standIn: StandIn;
  let redis: TestRedis;
  let config: string;
  let env: Record<string, string>;
  let replicas: TestReplica[];
  const urlOf = (replica: TestReplica) => world.urlOf(replica);

  beforeAll(async () => {
    world = await startSignInReplicaWorld('per-person-replicas', (mcpUrl, store) => ({
      mcpServers: { docs: { url: mcpUrl, auth: { type: 'oauth', perProfile: true } } },
      profiles: { alice: { token: ALICE }, bob: { token: BOB } },
      store,
    }));
    ({ standIn, redis, config, env, replicas } = world);
  }, 60_000);

  afterAll(() => world?.close());

  it("stores each profile's sign-in in Redis, encrypted", async () => {
    for (const person of ['alice', 'bob']) {
      standIn.options.user = person;
      const login = await loginAsPerson(['docs', '--config', config, '--profile', person], env);
      expect(login.code, login.stderr).toBe(0);
    }
    const dump = execFileSync('redis-cli', ['-u', redis.url, 'hgetall', 'tool-search:sign-ins'], {
      encoding: 'utf8',
    });
    expect(dump).toContain('docs@alice');
    expect(dump).toContain('docs@bob');
    for (const token of standIn.issued) expect(dump).not.toContain(token);
  });

  it("a refresh of alice's token on one replica serves the other; bob's stays bob's", async () => {
    // The replicas read the key from their environment, as an operator's unit would set it.
    await world.startReplicas(2, TOKEN);
    const [first, second] = await Promise.all(
      replicas.map((replica) => connectGateway(urlOf(replica), ALICE)),
    );
    const bob = await connectGateway(urlOf(replicas[1]!), BOB);
    const alice = { text: 'you are signed in as alice', isError: false };
    expect(await first!.call('whoami')).toEqual(alice);
    expect(await second!.call('whoami')).toEqual(alice);
    standIn.expireAccessTokens();
    const before = standIn.hits.get('/token') ?? 0;
    expect(await first!.call('whoami')).toEqual(alice);
    expect(standIn.hits.get('/token')).toBe(before + 1);
    // The second replica reads alice's refreshed token from the store: no refresh of its own.
    expect(await second!.call('whoami')).toEqual(alice);
    expect(standIn.hits.get('/token')).toBe(before + 1);
    // bob's expired token is refreshed as bob's, on his own connection.
    expect(await bob.call('whoami')).toEqual({ text: 'you are signed in as bob', isError: false });
    expect(standIn.hits.get('/token')).toBe(before + 2);
    await Promise.all([first!.client.close(), second!.client.close(), bob.client.close()]);
    for (const replica of replicas) printed.push(replica.stderr());
    const all = printed.join('\n');
    for (const token of standIn.issued) expect(all).not.toContain(token);
  });
});
