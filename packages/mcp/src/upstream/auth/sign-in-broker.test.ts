import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type StandIn, startOAuthStandIn } from '../../testing/oauth-stand-in.js';
import { signInKey } from './credentials.js';
import { createFileSignInStore } from './file-store.js';
import { createSignInBroker, type SignInBroker } from './sign-in-broker.js';

const REDIRECT = 'http://127.0.0.1:9/console/sign-in/callback';

let standIn: StandIn | undefined;
let folder: string | undefined;
let broker: SignInBroker | undefined;

afterEach(async () => {
  await broker?.close();
  broker = undefined;
  await standIn?.close();
  standIn = undefined;
  if (folder) await rm(folder, { recursive: true, force: true });
  folder = undefined;
});

async function setUp(options: { maxPending?: number; ttlMs?: number } = {}) {
  standIn = await startOAuthStandIn();
  folder = await mkdtemp(join(tmpdir(), 'sign-in-broker-'));
  const store = createFileSignInStore(join(folder, 'sign-ins'));
  const url = standIn.mcpUrl;
  broker = createSignInBroker({
    store,
    target: (server) => (server === 'docs' ? { url, auth: { type: 'oauth' } } : undefined),
    ...options,
  });
  return { standIn, store, broker };
}

/** The person's browser at the authorization server: where it is sent back to. */
async function authorize(url: URL): Promise<URLSearchParams> {
  const response = await fetch(url, { redirect: 'manual' });
  await response.arrayBuffer();
  const location = new URL(response.headers.get('location') ?? '');
  expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
  return location.searchParams;
}

describe('createSignInBroker', () => {
  it("stores a profile's tokens from a redirect to the gateway's route, as login does", async () => {
    const { standIn, store, broker } = await setUp();
    standIn.options.user = 'ada';
    const started = await broker.start({
      server: 'docs',
      profile: 'ada',
      owner: 'default',
      redirectUrl: REDIRECT,
    });
    expect(started.url.searchParams.get('redirect_uri')).toBe(REDIRECT);
    expect(started.url.searchParams.get('code_challenge_method')).toBe('S256');
    const back = await authorize(started.url);
    const outcome = await broker.callback(back, started.binding);
    expect(outcome).toMatchObject({ ok: true, server: 'docs', profile: 'ada' });
    const record = await store.load(signInKey('docs', 'ada'));
    expect(record?.tokens?.refresh_token).toBeDefined();
    expect(await store.load(signInKey('docs'))).toBeUndefined();
  });

  it('refuses a replay of the redirect, and a state it did not start (the CLI flow)', async () => {
    const { broker } = await setUp();
    const started = await broker.start({ server: 'docs', owner: 'default', redirectUrl: REDIRECT });
    const back = await authorize(started.url);
    expect((await broker.callback(back, started.binding)).ok).toBe(true);
    expect(await broker.callback(back, started.binding)).toMatchObject({ ok: false, status: 400 });
    const foreign = new URLSearchParams({ code: 'x', state: 'a-state-of-the-login-command-flow' });
    expect(await broker.callback(foreign, started.binding)).toMatchObject({
      ok: false,
      status: 400,
    });
  });

  it("refuses a redirect brought by another browser (another's binding), and stops that sign-in", async () => {
    const { broker, store } = await setUp();
    const ada = await broker.start({
      server: 'docs',
      profile: 'ada',
      owner: 'profile:ada',
      redirectUrl: REDIRECT,
    });
    const bob = await broker.start({
      server: 'docs',
      profile: 'bob',
      owner: 'profile:bob',
      redirectUrl: REDIRECT,
    });
    const back = await authorize(ada.url);
    // bob's browser brings ada's redirect: refused, and ada's sign-in cannot be finished after.
    expect(await broker.callback(back, bob.binding)).toMatchObject({ ok: false, status: 403 });
    expect(await broker.callback(back, ada.binding)).toMatchObject({ ok: false, status: 400 });
    expect(await broker.callback(back, undefined)).toMatchObject({ ok: false, status: 400 });
    // Only the client registration is kept: no tokens for either.
    expect((await store.load(signInKey('docs', 'ada')))?.tokens).toBeUndefined();
    expect((await store.load(signInKey('docs', 'bob')))?.tokens).toBeUndefined();
  });

  it('bounds the sign-ins waiting: a few a starter, a few in all; one that expires is refused', async () => {
    const { broker } = await setUp({ maxPending: 4, ttlMs: 60_000 });
    const start = (owner: string) => broker.start({ server: 'docs', owner, redirectUrl: REDIRECT });
    for (let index = 0; index < 3; index += 1) await start('default');
    await expect(start('default')).rejects.toMatchObject({
      code: 'upstream_sign_in_failed',
      data: { field: 'pending' },
    });
    await start('profile:ada');
    await expect(start('profile:bob')).rejects.toMatchObject({ data: { field: 'pending' } });
    await expect(
      broker.start({ server: 'nope', owner: 'x', redirectUrl: REDIRECT }),
    ).rejects.toMatchObject({ code: 'invalid_argument' });
  });

  it('counts starts still discovering: of ten at once from one starter, seven are refused before any discovery', async () => {
    const { broker, standIn } = await setUp({ maxPending: 16, ttlMs: 60_000 });
    const registered = standIn.hits.get('/register') ?? 0;
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, () =>
        broker.start({ server: 'docs', owner: 'profile:mallory', redirectUrl: REDIRECT }),
      ),
    );
    // Seven are refused at once for the bound, before any discovery or registration.
    const bounded = outcomes.filter(
      (outcome) =>
        outcome.status === 'rejected' &&
        (outcome.reason as { data?: { field?: string } }).data?.field === 'pending',
    );
    expect(bounded).toHaveLength(7);
    expect((standIn.hits.get('/register') ?? 0) - registered).toBeLessThanOrEqual(3);
  });

  it('refuses a redirect that comes after the sign-in expired', async () => {
    const { broker } = await setUp({ ttlMs: 200 });
    const started = await broker.start({ server: 'docs', owner: 'default', redirectUrl: REDIRECT });
    const back = await authorize(started.url);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await broker.callback(back, started.binding)).toMatchObject({ ok: false, status: 400 });
  });
});
