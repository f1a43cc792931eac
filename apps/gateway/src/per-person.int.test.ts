import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type StandIn, startOAuthStandIn } from '@tool-search/mcp/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopProcess } from './__fixtures__/processes.js';
import { runCli } from './__fixtures__/run.js';
import {
  connectGateway,
  consoleApi,
  loginAsPerson,
  printed,
  type ServeChild,
  startServe,
} from './__fixtures__/sign-in.js';

const TOKEN = 'per-person-gateway-token-0123456';
const TOKENS = {
  alice: 'alice-per-person-0123456789abcdef',
  bob: 'bob-per-person-0123456789abcdef00',
  carol: 'carol-per-person-0123456789abcdef',
};

describe('one shared gateway reaches a server that needs sign-in as each person (perProfile)', () => {
  let standIn: StandIn;
  let workspace: string;
  let config: string;
  let env: Record<string, string>;
  let served: ServeChild | undefined;

  /** `login docs` as `user` at the stand-in's sign-in page, for a profile (none: the operator). */
  const signIn = async (user: string, profile?: string) => {
    standIn.options.user = user;
    const args = [
      'docs',
      '--config',
      config,
      ...(profile === undefined ? [] : ['--profile', profile]),
    ];
    const login = await loginAsPerson(args, env);
    expect(login.code, login.stderr).toBe(0);
  };

  beforeAll(async () => {
    standIn = await startOAuthStandIn();
    workspace = mkdtempSync(join(tmpdir(), 'gw-per-person-'));
    config = join(workspace, 'gateway.json');
    env = { TOOL_SEARCH_STATE_DIR: join(workspace, 'state') };
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { docs: { url: standIn.mcpUrl, auth: { type: 'oauth', perProfile: true } } },
        profiles: {
          alice: { token: TOKENS.alice },
          bob: { token: TOKENS.bob },
          carol: { token: TOKENS.carol },
        },
        console: { enabled: true },
      }),
    );
  }, 60_000);

  afterAll(async () => {
    if (served) await stopProcess(served.child);
    await standIn.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it("two profiles on one serve each reach the server as themselves; a third gets the login command, never another's token", async () => {
    await signIn('operator');
    await signIn('alice', 'alice');
    await signIn('bob', 'bob');
    served = await startServe(['--config', config, '--token', TOKEN], env);
    const alice = await connectGateway(served.url, TOKENS.alice);
    const bob = await connectGateway(served.url, TOKENS.bob);
    const carol = await connectGateway(served.url, TOKENS.carol);
    const listed = async (client: typeof alice) =>
      (await client.client.listTools()).tools.map((tool) => tool.name).sort();
    // Each person's list is what the server lists for them: never another's.
    expect(await listed(alice)).toContain('notes_of_alice');
    expect(await listed(alice)).not.toContain('notes_of_bob');
    expect(await listed(bob)).toContain('notes_of_bob');
    expect(await listed(bob)).not.toContain('notes_of_alice');
    expect(await alice.call('whoami')).toEqual({
      text: 'you are signed in as alice',
      isError: false,
    });
    expect(await bob.call('whoami')).toEqual({ text: 'you are signed in as bob', isError: false });
    expect(await alice.call('notes_of_alice')).toEqual({
      text: 'the notes of alice',
      isError: false,
    });
    expect((await bob.call('notes_of_alice')).isError).toBe(true);

    // carol never signed in: the server's tools she may see answer with her login command.
    expect(await listed(carol)).not.toContain('notes_of_alice');
    const refused = await carol.call('whoami');
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain("needs sign-in for profile 'carol'");
    expect(refused.text).toContain('tool-search-gateway login docs --profile carol');
    expect(refused.text).not.toContain('operator');

    // The operator's own sessions (the gateway's token) use the operator's sign-in.
    const operator = await connectGateway(served.url, TOKEN);
    expect(await operator.call('whoami')).toEqual({
      text: 'you are signed in as operator',
      isError: false,
    });
    await Promise.all([alice, bob, carol, operator].map((client) => client.client.close()));
  });

  it("a refresh of one person's expired token is that person's; logout of one leaves the other", async () => {
    const alice = await connectGateway(served!.url, TOKENS.alice);
    const bob = await connectGateway(served!.url, TOKENS.bob);
    standIn.expireAccessTokens();
    expect(await alice.call('whoami')).toEqual({
      text: 'you are signed in as alice',
      isError: false,
    });
    expect(await bob.call('whoami')).toEqual({ text: 'you are signed in as bob', isError: false });

    const out = await runCli(['logout', 'docs', '--config', config, '--profile', 'bob'], { env });
    printed.push(out.stdout, out.stderr);
    expect(out.stdout).toContain("Signed out of docs for profile 'bob'.");
    standIn.expireAccessTokens();
    expect(await alice.call('whoami')).toEqual({
      text: 'you are signed in as alice',
      isError: false,
    });
    const after = await bob.call('whoami');
    expect(after.isError).toBe(true);
    expect(after.text).toContain('login docs --profile bob');
    await Promise.all([alice.client.close(), bob.client.close()]);
  });

  it("the console lists each profile's sign-in with its state, and its API and inspect hold no token", async () => {
    const api = await consoleApi(served!.url, TOKEN);
    const signIns = await api('sign-ins');
    expect(signIns.status).toBe(200);
    const body = JSON.parse(signIns.text) as { signIns: Record<string, unknown>[] };
    const byProfile = Object.fromEntries(
      body.signIns.map((line) => [String(line['profile'] ?? '(gateway)'), line['state']]),
    );
    expect(byProfile).toEqual({
      '(gateway)': 'signed-in',
      alice: 'signed-in',
      bob: 'needs-sign-in',
      carol: 'needs-sign-in',
    });
    for (const path of ['activity', 'upstreams', 'overview', 'tools', 'sessions']) {
      expect((await api(path)).status, path).toBe(200);
    }
    for (const profile of ['alice', 'bob']) {
      const inspect = await runCli(['inspect', '--config', config, '--profile', profile], { env });
      printed.push(inspect.stdout, inspect.stderr);
    }
    const audit = await runCli(['audit', '--config', config, '--count', '1000'], { env });
    printed.push(audit.stdout, audit.stderr);
  });

  it('no token ever appears in what the processes printed or answered', async () => {
    await stopProcess(served!.child);
    printed.push(served!.stderr());
    served = undefined;
    expect(standIn.issued.length).toBeGreaterThan(6);
    const all = printed.join('\n');
    for (const token of standIn.issued) expect(all).not.toContain(token);
  });
});
