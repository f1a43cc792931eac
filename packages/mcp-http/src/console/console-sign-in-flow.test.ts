import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createFileSignInStore,
  createSignInBroker,
  createUpstreamAuthProviders,
  signInKey,
} from '@tool-search/mcp/auth';
import { parseGatewayConfig } from '@tool-search/mcp/config';
import { type StandIn, startOAuthStandIn } from '@tool-search/mcp/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StartedGateway, startGateway } from '../start.js';

const TOKEN = 'console-flow-test-token-0123456';
const ALICE = 'alice-operator-token-0123456789';
const BOB = 'bob-profile-token-0123456789abcd';

describe("the console's sign-in start and its callback route", () => {
  let standIn: StandIn;
  let folder: string;
  let gateway: StartedGateway;
  const store = () => createFileSignInStore(join(folder, 'sign-ins'));

  /** Signs in on the console with a token: its cookie and CSRF token. */
  const consoleAs = async (token: string) => {
    const login = await fetch(new URL('/console/api/login', gateway.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    expect(login.status).toBe(200);
    const { csrf } = (await login.json()) as { csrf: string };
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    return (body: unknown) =>
      fetch(new URL('/console/api/sign-ins/start', gateway.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': csrf, cookie },
        body: JSON.stringify(body),
      });
  };

  /** The browser at the authorization server, then back at the gateway with a cookie (or none). */
  const comeBack = async (authorizationUrl: string, binding: string | undefined) => {
    const atServer = await fetch(authorizationUrl, { redirect: 'manual' });
    await atServer.arrayBuffer();
    const redirect = atServer.headers.get('location')!;
    const back = await fetch(redirect, {
      headers: binding === undefined ? {} : { cookie: `tool_search_sign_in=${binding}` },
    });
    return { redirect, status: back.status, page: await back.text() };
  };

  const bindingOf = (response: Response) =>
    /tool_search_sign_in=([^;]*)/.exec(response.headers.get('set-cookie') ?? '')?.[1];

  beforeAll(async () => {
    standIn = await startOAuthStandIn();
    folder = await mkdtemp(join(tmpdir(), 'console-flow-'));
    const url = standIn.mcpUrl;
    const config = parseGatewayConfig({
      mcpServers: { docs: { url, auth: { type: 'oauth', perProfile: true } } },
      profiles: { alice: { token: ALICE, operator: true }, bob: { token: BOB } },
      console: { enabled: true },
    });
    gateway = await startGateway({
      config,
      http: { port: 0, token: TOKEN },
      pool: { authProvider: createUpstreamAuthProviders({ store: store() }) },
      console: {
        signInFlow: createSignInBroker({
          store: store(),
          maxPending: 4,
          target: (server) => (server === 'docs' ? { url, auth: { type: 'oauth' } } : undefined),
        }),
      },
    });
    await gateway.ready();
  });

  afterAll(async () => {
    await gateway?.close();
    await standIn?.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('lets an operator profile start only its own sign-in; the gateway token any known one', async () => {
    const alice = await consoleAs(ALICE);
    const forBob = await alice({ server: 'docs', profile: 'bob' });
    expect(forBob.status).toBe(403);
    expect((await alice({ server: 'docs' })).status).toBe(403);
    const own = await alice({ server: 'docs', profile: 'alice' });
    expect(own.status).toBe(200);
    expect(own.headers.get('set-cookie')).toMatch(
      /^tool_search_sign_in=[\w-]{20,}; Path=\/console\/sign-in\/callback; HttpOnly; SameSite=Lax; Max-Age=\d+$/,
    );
    const operator = await consoleAs(TOKEN);
    expect((await operator({ server: 'docs', profile: 'nobody' })).status).toBe(404);
    expect((await operator({ server: 'other' })).status).toBe(409);
    expect((await operator({ server: 7 })).status).toBe(400);
  });

  it("stores bob's sign-in from the redirect to the gateway's route, once; another browser's is refused", async () => {
    standIn.options.user = 'bob';
    const operator = await consoleAs(TOKEN);
    const started = await operator({ server: 'docs', profile: 'bob' });
    const { url } = (await started.json()) as { url: string };
    const done = await comeBack(url, bindingOf(started));
    expect(done.status, done.page).toBe(200);
    expect(done.page).toContain('Signed in to docs for profile bob.');
    expect((await store().load(signInKey('docs', 'bob')))?.tokens).toBeDefined();
    // The same redirect again: refused.
    const replay = await fetch(done.redirect, {
      headers: { cookie: `tool_search_sign_in=${bindingOf(started)}` },
    });
    expect(replay.status).toBe(400);
    // A redirect brought without the starting browser's binding: refused, and stopped.
    const again = await operator({ server: 'docs', profile: 'bob' });
    const { url: second } = (await again.json()) as { url: string };
    const stolen = await comeBack(second, undefined);
    expect(stolen.status).toBe(403);
    for (const token of standIn.issued) {
      expect(done.page).not.toContain(token);
      expect(stolen.page).not.toContain(token);
    }
  });

  it('bounds a flood of starts (429), and answers a callback of no sign-in with 400', async () => {
    const operator = await consoleAs(TOKEN);
    const statuses: number[] = [];
    for (let index = 0; index < 6; index += 1) {
      statuses.push((await operator({ server: 'docs' })).status);
    }
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(3);
    const foreign = await fetch(
      new URL('/console/sign-in/callback?code=x&state=a-state-of-the-login-command', gateway.url),
    );
    expect(foreign.status).toBe(400);
    expect(await foreign.text()).toContain('Sign-in refused');
  });
});
