import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { parseGatewayConfig } from '../config/parse.js';
import { followAsBrowser, type StandIn, startOAuthStandIn } from '../testing/oauth-stand-in.js';
import { createFileSignInStore } from './auth/file-store.js';
import { createUpstreamAuthProviders } from './auth/providers.js';
import { signInToUpstream, signOutOfUpstream } from './auth/sign-in.js';
import { createUpstreamPool, type UpstreamPool, type UpstreamPoolConfig } from './pool.js';

let standIn: StandIn | undefined;
let folder: string | undefined;
let pool: UpstreamPool | undefined;

afterEach(async () => {
  await pool?.close();
  pool = undefined;
  await standIn?.close();
  standIn = undefined;
  if (folder) await rm(folder, { recursive: true, force: true });
  folder = undefined;
});

const AUTH = { type: 'oauth' as const, perProfile: true };

async function setUp() {
  standIn = await startOAuthStandIn();
  folder = await mkdtemp(join(tmpdir(), 'per-profile-'));
  const store = createFileSignInStore(join(folder, 'sign-ins'));
  return { standIn, store };
}

/** A person signs in at the stand-in as `user`, for `profile` (none: the operator). */
async function login(
  setup: Awaited<ReturnType<typeof setUp>>,
  user: string,
  profile: string | undefined,
) {
  setup.standIn.options.user = user;
  const pages: Promise<number>[] = [];
  await signInToUpstream({
    server: 'docs',
    url: setup.standIn.mcpUrl,
    auth: AUTH,
    store: setup.store,
    ...(profile === undefined ? {} : { profile }),
    onAuthorizationUrl: (url) => {
      pages.push(followAsBrowser(url.href));
    },
  });
  await Promise.all(pages);
}

function startPool(
  setup: Awaited<ReturnType<typeof setUp>>,
  maxProfileConnections?: number,
  review?: UpstreamPoolConfig['review'],
) {
  pool = createUpstreamPool(
    {
      mcpServers: {
        docs: { type: 'streamable-http', url: setup.standIn.mcpUrl, auth: AUTH },
      },
      ...(review === undefined ? {} : { review }),
    },
    {
      authProvider: createUpstreamAuthProviders({ store: setup.store }),
      reconnect: { retryFailedMs: 0 },
      ...(maxProfileConnections === undefined ? {} : { maxProfileConnections }),
    },
  );
  return pool;
}

function textOf(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

const names = (pool: UpstreamPool, profile?: string) =>
  pool
    .tools(profile === undefined ? {} : { profile })
    .map((tool) => tool.name)
    .sort();

describe('servers signed in per profile', () => {
  it("reaches the server as each profile's own person, with each one's own tool list", async () => {
    const setup = await setUp();
    await login(setup, 'operator', undefined);
    await login(setup, 'ada', 'ada');
    await login(setup, 'bob', 'bob');
    const pool = startPool(setup);
    await pool.start();
    expect(names(pool)).toEqual(['notes_of_operator', 'whoami']);
    // Nothing is opened for a profile before its first use; reading its view is not one.
    const mcpHits = setup.standIn.hits.get('/mcp');
    expect(names(pool, 'ada')).toEqual(['notes_of_operator', 'whoami']);
    expect(setup.standIn.hits.get('/mcp')).toBe(mcpHits);
    expect(setup.standIn.hits.get('/token')).toBe(3);

    await pool.settle('ada');
    await pool.settle('bob');
    expect(names(pool, 'ada')).toEqual(['notes_of_ada', 'whoami']);
    expect(names(pool, 'bob')).toEqual(['notes_of_bob', 'whoami']);
    expect(textOf(await pool.callTool('whoami', {}, { profile: 'ada' }))).toBe(
      'you are signed in as ada',
    );
    expect(textOf(await pool.callTool('whoami', {}, { profile: 'bob' }))).toBe(
      'you are signed in as bob',
    );
    expect(textOf(await pool.callTool('whoami', {}))).toBe('you are signed in as operator');
    // A profile's tool is not another's: bob cannot name ada's tool.
    const refused = await pool.callTool('notes_of_ada', {}, { profile: 'bob' });
    expect(refused.isError).toBe(true);
    expect(refused._meta?.['tool-search/error']).toBe('unknown_tool');
    expect(pool.lookup('notes_of_ada', { profile: 'ada' })?.server).toBe('docs');
    // Its resources and prompts would be read with the operator's sign-in: none are served.
    expect(pool.features?.servers().map((server) => server.server)).toEqual([]);
    expect(pool.lookup('notes_of_ada', { profile: 'bob' })).toBeUndefined();
  });

  it('answers a profile without its own sign-in with the login command, never with the operator token', async () => {
    const setup = await setUp();
    await login(setup, 'operator', undefined);
    const pool = startPool(setup);
    await pool.start();
    await pool.settle('carol');
    // The operator's list is not `private` (a 2025 server): carol may see what there is to
    // sign in to, and a call says how.
    const result = await pool.callTool('whoami', {}, { profile: 'carol' });
    expect(result.isError).toBe(true);
    expect(result._meta?.['tool-search/error']).toBe('upstream_sign_in_required');
    expect(textOf(result)).toContain("Server 'docs' needs sign-in for profile 'carol'");
    expect(textOf(result)).toContain('login docs --profile carol');
    expect(textOf(result)).not.toContain('operator');
    // The operator's own tool is never in a view built for carol's calls to succeed.
    const own = await pool.callTool('notes_of_operator', {}, { profile: 'carol' });
    expect(own._meta?.['tool-search/error']).toBe('upstream_sign_in_required');
  });

  it("keeps one profile's connection when another signs out, and closes them with the pool", async () => {
    const setup = await setUp();
    await login(setup, 'operator', undefined);
    await login(setup, 'ada', 'ada');
    await login(setup, 'bob', 'bob');
    const pool = startPool(setup);
    await pool.start();
    await pool.settle('ada');
    await pool.settle('bob');
    await signOutOfUpstream({ server: 'docs', store: setup.store, profile: 'bob' });
    setup.standIn.expireAccessTokens();
    await pool.reload({
      docs: {
        type: 'streamable-http',
        url: setup.standIn.mcpUrl,
        auth: { ...AUTH, scopes: ['tools.read'] },
      },
    });
    // The reload closed both; ada's reopens with her stored (refreshed) sign-in, bob's needs a login.
    await pool.settle('ada');
    await pool.settle('bob');
    expect(textOf(await pool.callTool('whoami', {}, { profile: 'ada' }))).toBe(
      'you are signed in as ada',
    );
    const bob = await pool.callTool('whoami', {}, { profile: 'bob' });
    expect(bob._meta?.['tool-search/error']).toBe('upstream_sign_in_required');
  });

  it('bounds the connections opened for profiles: the least recently used idle one is closed', async () => {
    const setup = await setUp();
    for (const person of ['ada', 'bob', 'cy']) await login(setup, person, person);
    const pool = startPool(setup, 2);
    await pool.start();
    await pool.settle('ada');
    await pool.settle('bob');
    const before = setup.standIn.hits.get('/mcp') ?? 0;
    await pool.settle('cy');
    expect(names(pool, 'cy')).toEqual(['notes_of_cy', 'whoami']);
    // ada's was the oldest: it reopens on her next use, and works.
    expect(textOf(await pool.callTool('whoami', {}, { profile: 'ada' }))).toBe(
      'you are signed in as ada',
    );
    expect(setup.standIn.hits.get('/mcp') ?? 0).toBeGreaterThan(before);
  });

  it('lists nothing of the server to a profile without a sign-in when no list is known to be public', async () => {
    const setup = await setUp();
    await login(setup, 'ada', 'ada');
    const pool = startPool(setup);
    await pool.start();
    await pool.settle('ada');
    await pool.settle('zed');
    expect(names(pool, 'ada')).toEqual(['notes_of_ada', 'whoami']);
    // ada's list is hers: zed (no sign-in) and the operator (none either) see none of it.
    expect(names(pool, 'zed')).toEqual([]);
    expect(names(pool)).toEqual([]);
    const zed = await pool.callTool('notes_of_ada', {}, { profile: 'zed' });
    expect(zed._meta?.['tool-search/error']).toBe('unknown_tool');
  });

  it("picks up a profile's sign-in made while the gateway runs, at its next use", async () => {
    const setup = await setUp();
    const pool = startPool(setup);
    await pool.start();
    await pool.settle('ada');
    expect(names(pool, 'ada')).toEqual([]);
    await login(setup, 'ada', 'ada');
    // A refused connection is opened anew on a use at least 2 s after it was opened.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    await pool.settle('ada');
    expect(names(pool, 'ada')).toEqual(['notes_of_ada', 'whoami']);
    expect(textOf(await pool.callTool('whoami', {}, { profile: 'ada' }))).toBe(
      'you are signed in as ada',
    );
  });

  it("holds a profile's new tools for the operator's review, as the shared connection's", async () => {
    const setup = await setUp();
    await login(setup, 'operator', undefined);
    await login(setup, 'ada', 'ada');
    const file = join(folder!, 'review.json');
    const pool = startPool(setup, undefined, { file, hold: 'new-and-changed' });
    await pool.start();
    await pool.settle('ada');
    // Nothing accepted yet: ada sees none of the server's tools, nor does the operator.
    expect(names(pool, 'ada')).toEqual([]);
    expect(names(pool)).toEqual([]);
    const held = pool
      .status()[0]
      ?.heldTools.map((tool) => tool.name)
      .sort();
    expect(held).toEqual(['notes_of_ada', 'notes_of_operator', 'whoami']);
    const keys = pool.fingerprints().map((item) => `${item.server}/${item.name}`);
    expect(keys.sort()).toEqual(['docs/notes_of_ada', 'docs/notes_of_operator', 'docs/whoami']);
  });

  it('refuses perProfile on a machine account with a clear config error', () => {
    expect(() =>
      parseGatewayConfig({
        mcpServers: {
          docs: {
            type: 'streamable-http',
            url: 'https://example.test/mcp',
            auth: {
              type: 'client_credentials',
              clientId: 'x',
              clientSecret: 'y',
              perProfile: true,
            },
          },
        },
      }),
    ).toThrow(/perProfile is for interactive sign-in/);
  });
});
