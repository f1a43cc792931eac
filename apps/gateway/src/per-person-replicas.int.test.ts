import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type StandIn, startOAuthStandIn } from '@tool-search/mcp/testing';
import { freePort, startRedis, type TestRedis } from '@tool-search/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReplica, type TestReplica } from './__fixtures__/replicas.js';
import { connectGateway, loginAsPerson, printed } from './__fixtures__/sign-in.js';

const TOKEN = 'per-person-replicas-gateway-01234';
const ALICE = 'alice-per-person-replicas-0123456';
const BOB = 'bob-per-person-replicas-012345678';

describe("each profile's sign-in shared by replicas on Redis, encrypted (perProfile)", () => {
  let standIn: StandIn;
  let redis: TestRedis;
  let workspace: string;
  let config: string;
  let env: Record<string, string>;
  const replicas: TestReplica[] = [];
  let restoreEnv = () => {};
  const urlOf = (replica: TestReplica) => new URL(`http://127.0.0.1:${replica.port}/mcp`);

  beforeAll(async () => {
    standIn = await startOAuthStandIn();
    redis = await startRedis();
    workspace = mkdtempSync(join(tmpdir(), 'gw-per-person-replicas-'));
    config = join(workspace, 'gateway.json');
    env = {
      TOOL_SEARCH_SIGN_IN_KEY: randomBytes(32).toString('base64'),
      TOOL_SEARCH_STATE_DIR: join(workspace, 'state'),
    };
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { docs: { url: standIn.mcpUrl, auth: { type: 'oauth', perProfile: true } } },
        profiles: { alice: { token: ALICE }, bob: { token: BOB } },
        store: redis.url,
      }),
    );
  }, 60_000);

  afterAll(async () => {
    for (const replica of replicas) await replica.kill();
    restoreEnv();
    await standIn?.close();
    await redis?.stop();
    rmSync(workspace, { recursive: true, force: true });
  });

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
    Object.assign(process.env, env);
    restoreEnv = () => {
      for (const name of Object.keys(env)) delete process.env[name];
    };
    for (let index = 0; index < 2; index += 1) {
      replicas.push(await startReplica(config, await freePort(), ['--token', TOKEN]));
    }
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
