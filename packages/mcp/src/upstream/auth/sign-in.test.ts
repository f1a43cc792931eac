import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { followAsBrowser, type StandIn, startOAuthStandIn } from '../../testing/oauth-stand-in.js';
import type { UpstreamClient } from '../client.js';
import { connectUpstream } from '../connect.js';
import { signInKey } from './credentials.js';
import { createFileSignInStore } from './file-store.js';
import { createUpstreamAuthProviders } from './providers.js';
import { signInToUpstream, signOutOfUpstream } from './sign-in.js';

let standIn: StandIn | undefined;
let folder: string | undefined;

afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
  if (folder) await rm(folder, { recursive: true, force: true });
  folder = undefined;
});

async function setUp(options: Parameters<typeof startOAuthStandIn>[0] = {}) {
  standIn = await startOAuthStandIn(options);
  folder = await mkdtemp(join(tmpdir(), 'sign-in-'));
  const store = createFileSignInStore(join(folder, 'sign-ins'));
  return { standIn, store, folder };
}

/** Signs in as a person would: the printed URL is opened and its redirect followed. */
function login(
  target: { url: string; store: ReturnType<typeof createFileSignInStore>; profile?: string },
  extra: { timeoutMs?: number; requestTimeoutMs?: number } = {},
) {
  const pages: Promise<number>[] = [];
  const result = signInToUpstream({
    server: 'docs',
    url: target.url,
    auth: { type: 'oauth' },
    store: target.store,
    ...(target.profile === undefined ? {} : { profile: target.profile }),
    ...extra,
    onAuthorizationUrl: (url) => {
      pages.push(followAsBrowser(url.href));
    },
  });
  return { result, pages };
}

async function use(url: string, store: ReturnType<typeof createFileSignInStore>, profile?: string) {
  const providers = createUpstreamAuthProviders({
    store,
    ...(profile === undefined ? {} : { profile }),
  });
  const connection = await connectUpstream(
    { type: 'streamable-http', url, auth: { type: 'oauth' } },
    {
      clientInfo: { name: 'test', version: '1' },
      timeoutMs: 10_000,
      signal: new AbortController().signal,
      prepare: () => {},
      authProvider: () => providers('docs', { url, auth: { type: 'oauth' } }),
    },
  );
  return connection.client;
}

/** The names of the tools the server lists to this client. */
async function toolNames(client: UpstreamClient): Promise<string[]> {
  const result = await client.request({ method: 'tools/list', params: {} });
  return result.tools.map((tool) => tool.name);
}

describe('signInToUpstream', () => {
  it('signs in with discovery, registration, PKCE S256 and resource, and stores the tokens owner-only', async () => {
    const { standIn, store, folder } = await setUp();
    const { result } = login({ url: standIn.mcpUrl, store });
    const summary = await result;
    expect(summary).toMatchObject({
      state: 'signed-in',
      refreshable: true,
      issuer: standIn.issuer,
    });
    expect(summary.expiresAt).toBeGreaterThan(Date.now());
    expect(standIn.lastAuthorize?.get('code_challenge_method')).toBe('S256');
    expect(standIn.lastAuthorize?.get('resource')).toBe(standIn.mcpUrl);
    expect(standIn.lastAuthorize?.get('scope')).toBe('tools.read');
    const files = await readdir(join(folder, 'sign-ins'));
    expect(files).toEqual(['docs.json']);
    expect((await stat(join(folder, 'sign-ins', 'docs.json'))).mode & 0o777).toBe(0o600);
    expect((await stat(join(folder, 'sign-ins'))).mode & 0o777).toBe(0o700);
    // The summary says nothing secret.
    for (const token of standIn.issued) expect(JSON.stringify(summary)).not.toContain(token);
  });

  it('lets a connection use the stored token, and refresh it when the server refuses it', async () => {
    const { standIn, store } = await setUp();
    await login({ url: standIn.mcpUrl, store }).result;
    const client = await use(standIn.mcpUrl, store);
    expect(await toolNames(client)).toEqual(['whoami']);
    await client.close();
    const before = (await store.load('docs'))?.tokens?.access_token;
    standIn.expireAccessTokens();
    const again = await use(standIn.mcpUrl, store);
    expect(await toolNames(again)).toHaveLength(1);
    await again.close();
    const after = (await store.load('docs'))?.tokens?.access_token;
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
    expect(standIn.lastToken?.get('grant_type')).toBe('refresh_token');
  });

  it('does not fall back to SSE for a server that needs sign-in (an entry of no transport type)', async () => {
    const { standIn, store } = await setUp();
    const providers = createUpstreamAuthProviders({ store });
    const connect = (type: 'streamable-http' | undefined) =>
      connectUpstream(
        { ...(type === undefined ? {} : { type }), url: standIn.mcpUrl, auth: { type: 'oauth' } },
        {
          clientInfo: { name: 'test', version: '1' },
          timeoutMs: 10_000,
          signal: new AbortController().signal,
          prepare: () => {},
          authProvider: () => providers('docs', { url: standIn.mcpUrl, auth: { type: 'oauth' } }),
        },
      ).catch((caught: unknown) => caught);
    const direct = await connect('streamable-http');
    const error = await connect(undefined);
    expect(direct).toMatchObject({ code: 'upstream_sign_in_required' });
    expect(error).toMatchObject({ code: 'upstream_sign_in_required' });
    // Not "Streamable HTTP failed (...), and so did the SSE fallback (...)".
    expect(String((error as Error).message)).not.toMatch(/SSE/);
  });

  it('fails with upstream_sign_in_required naming the server when nothing is stored', async () => {
    const { standIn, store } = await setUp();
    await expect(use(standIn.mcpUrl, store)).rejects.toMatchObject({
      code: 'upstream_sign_in_required',
      message: expect.stringContaining("server 'docs' needs sign-in"),
    });
    // Nothing was registered or asked for on the server's behalf.
    expect(standIn.hits.get('/register')).toBeUndefined();
  });

  it('fails with upstream_sign_in_required when the refresh is refused, and forgets the tokens', async () => {
    const { standIn, store } = await setUp();
    await login({ url: standIn.mcpUrl, store }).result;
    standIn.expireAccessTokens();
    standIn.refuseRefresh();
    await expect(use(standIn.mcpUrl, store)).rejects.toMatchObject({
      code: 'upstream_sign_in_required',
    });
    expect((await store.load('docs'))?.tokens).toBeUndefined();
    const hitsAfter = standIn.hits.get('/token');
    // The next connect fails at once: no token request, no loop.
    await expect(use(standIn.mcpUrl, store)).rejects.toMatchObject({
      code: 'upstream_sign_in_required',
    });
    expect(standIn.hits.get('/token')).toBe(hitsAfter);
  });

  it('stops a 401 loop in use: a server that refuses every token fails the connect, with one refresh at most', async () => {
    const { standIn, store } = await setUp();
    await login({ url: standIn.mcpUrl, store }).result;
    standIn.options.alwaysUnauthorized = true;
    const before = standIn.hits.get('/token') ?? 0;
    await expect(use(standIn.mcpUrl, store)).rejects.toThrow();
    expect((standIn.hits.get('/token') ?? 0) - before).toBeLessThanOrEqual(1);
  });

  it("keeps a profile apart: its own sign-in, and never the operator's token", async () => {
    const { standIn, store } = await setUp();
    await login({ url: standIn.mcpUrl, store }).result;
    await expect(use(standIn.mcpUrl, store, 'alice')).rejects.toMatchObject({
      code: 'upstream_sign_in_required',
      message: expect.stringContaining("profile 'alice'"),
    });
    await login({ url: standIn.mcpUrl, store, profile: 'alice' }).result;
    const alice = await store.load(signInKey('docs', 'alice'));
    const operator = await store.load('docs');
    expect(alice?.tokens?.access_token).not.toBe(operator?.tokens?.access_token);
    const client = await use(standIn.mcpUrl, store, 'alice');
    await client.close();
    expect(await signOutOfUpstream({ server: 'docs', store, profile: 'alice' })).toBe(true);
    expect(await store.load(signInKey('docs', 'alice'))).toBeUndefined();
    expect(await store.load('docs')).toBeDefined();
  });
});

describe('signInToUpstream, hostile authorization servers', () => {
  it('refuses metadata that names another issuer', async () => {
    const { standIn, store } = await setUp({ metadataIssuer: 'https://evil.example' });
    const { result } = login({ url: standIn.mcpUrl, store });
    await expect(result).rejects.toMatchObject({
      code: 'upstream_sign_in_failed',
      message: expect.stringContaining('names another issuer'),
    });
    expect(standIn.hits.get('/authorize')).toBeUndefined();
  });

  it('refuses protected resource metadata for another resource', async () => {
    const { standIn, store } = await setUp({ resource: 'https://other.example/mcp' });
    await expect(login({ url: standIn.mcpUrl, store }).result).rejects.toMatchObject({
      code: 'upstream_sign_in_failed',
    });
    expect(standIn.hits.get('/authorize')).toBeUndefined();
  });

  it('refuses a redirect whose iss is another issuer (RFC 9207)', async () => {
    const { standIn, store } = await setUp({ redirectIss: 'https://evil.example' });
    await expect(login({ url: standIn.mcpUrl, store }).result).rejects.toMatchObject({
      code: 'upstream_sign_in_failed',
      message: expect.stringContaining('RFC 9207'),
    });
    expect(standIn.hits.get('/token')).toBeUndefined();
  });

  it('refuses a redirect without iss when the server promised it', async () => {
    const { standIn, store } = await setUp({ redirectIss: null });
    await expect(login({ url: standIn.mcpUrl, store }).result).rejects.toMatchObject({
      code: 'upstream_sign_in_failed',
    });
  });

  it('ignores a redirect with the wrong state (400) and times out without a token request', async () => {
    const { standIn, store } = await setUp({ redirectState: 'forged' });
    const { result, pages } = login({ url: standIn.mcpUrl, store }, { timeoutMs: 1_500 });
    await expect(result).rejects.toMatchObject({ code: 'upstream_sign_in_failed' });
    expect(await Promise.all(pages)).toEqual([400]);
    expect(standIn.hits.get('/token')).toBeUndefined();
  });

  it('fails on a token endpoint that answers garbage', async () => {
    const { standIn, store } = await setUp({ token: 'garbage' });
    await expect(login({ url: standIn.mcpUrl, store }).result).rejects.toMatchObject({
      code: 'upstream_sign_in_failed',
    });
    expect((await store.load('docs'))?.tokens).toBeUndefined();
  });

  it('fails on a token endpoint that answers too slowly, past the request deadline', async () => {
    const { standIn, store } = await setUp({ token: { delayMs: 3_000 } });
    const { result } = login({ url: standIn.mcpUrl, store }, { requestTimeoutMs: 300 });
    await expect(result).rejects.toMatchObject({ code: 'upstream_sign_in_failed' });
    expect((await store.load('docs'))?.tokens).toBeUndefined();
  });

  it('stops a 401 loop: a server that refuses every token ends the sign-in with an error', async () => {
    const { standIn, store } = await setUp({ alwaysUnauthorized: true });
    await expect(login({ url: standIn.mcpUrl, store }).result).rejects.toMatchObject({
      code: 'upstream_sign_in_failed',
    });
    expect(standIn.hits.get('/authorize') ?? 0).toBeLessThanOrEqual(3);
  });
});

describe('the stored sign-in file', () => {
  it('holds the tokens only in the owner-only file', async () => {
    const { standIn, store, folder } = await setUp();
    await login({ url: standIn.mcpUrl, store }).result;
    const text = await readFile(join(folder, 'sign-ins', 'docs.json'), 'utf8');
    expect(standIn.issued.some((token) => text.includes(token))).toBe(true);
  });
});
