import { describe, expect, it } from 'vitest';
import type { SignInStore, StoredSignIn } from './credentials.js';
import { UpstreamOAuthProvider } from './provider.js';

function memoryStore(): SignInStore & { map: Map<string, StoredSignIn> } {
  const map = new Map<string, StoredSignIn>();
  return {
    map,
    load: async (key) => map.get(key),
    save: async (key, record) => {
      map.set(key, structuredClone(record));
    },
    delete: async (key) => map.delete(key),
  };
}

const URL_ = 'https://docs.example/mcp';

function signedIn(access: string): StoredSignIn {
  return {
    version: 1,
    server: 'docs',
    serverUrl: URL_,
    tokens: { access_token: access, token_type: 'Bearer', refresh_token: `r-${access}` },
    discovery: { authorizationServerUrl: 'https://auth.example' },
  };
}

describe('UpstreamOAuthProvider.forUse', () => {
  const target = (store: SignInStore) => ({
    server: 'docs',
    url: URL_,
    auth: { type: 'oauth' as const },
    store,
  });

  it('keeps the tokens another replica stored when its own are refused', async () => {
    const store = memoryStore();
    store.map.set('docs', signedIn('one'));
    const provider = await UpstreamOAuthProvider.forUse(target(store));
    // Another replica refreshed meanwhile.
    store.map.set('docs', signedIn('two'));
    await provider.invalidateCredentials('tokens');
    expect(store.map.get('docs')?.tokens?.access_token).toBe('two');
  });

  it('forgets its tokens when they are the ones stored, and keeps the rest of the record', async () => {
    const store = memoryStore();
    store.map.set('docs', signedIn('one'));
    const provider = await UpstreamOAuthProvider.forUse(target(store));
    await provider.invalidateCredentials('tokens');
    expect(store.map.get('docs')?.tokens).toBeUndefined();
    expect(store.map.get('docs')?.discovery).toBeDefined();
    await expect(provider.tokens()).rejects.toMatchObject({ code: 'upstream_sign_in_required' });
  });

  it('writes discovery onto what the store holds now, never over a newer token', async () => {
    const store = memoryStore();
    store.map.set('docs', signedIn('one'));
    const provider = await UpstreamOAuthProvider.forUse(target(store));
    store.map.set('docs', signedIn('two'));
    await provider.saveDiscoveryState({ authorizationServerUrl: 'https://auth.example' });
    expect(store.map.get('docs')?.tokens?.access_token).toBe('two');
  });

  it('does not present a sign-in made for another endpoint', async () => {
    const store = memoryStore();
    store.map.set('docs', { ...signedIn('one'), serverUrl: 'https://elsewhere.example/mcp' });
    const provider = await UpstreamOAuthProvider.forUse(target(store));
    await expect(provider.tokens()).rejects.toMatchObject({ code: 'upstream_sign_in_required' });
  });

  it('refuses metadata that names another issuer than the one it was fetched for', async () => {
    const provider = await UpstreamOAuthProvider.forUse(target(memoryStore()));
    await expect(
      provider.saveDiscoveryState({
        authorizationServerUrl: 'https://auth.example',
        resourceMetadata: { resource: URL_, authorization_servers: ['https://auth.example'] },
        authorizationServerMetadata: {
          issuer: 'https://evil.example',
          authorization_endpoint: 'https://evil.example/authorize',
          token_endpoint: 'https://evil.example/token',
          response_types_supported: ['code'],
        },
      }),
    ).rejects.toMatchObject({ code: 'upstream_sign_in_failed' });
  });
});

describe('UpstreamOAuthProvider.forLogin', () => {
  it('discovers anew at each 401 but binds the code exchange to what it found, and keeps that for refreshes', async () => {
    const store = memoryStore();
    store.map.set('docs', signedIn('old'));
    const provider = await UpstreamOAuthProvider.forLogin(
      { server: 'docs', url: URL_, auth: { type: 'oauth' }, store },
      { redirectUrl: 'http://127.0.0.1:1234/callback', onAuthorizationUrl: () => {} },
    );
    // A login never starts from the stored discovery (the server may have moved).
    expect(provider.discoveryState()).toBeUndefined();
    const moved = {
      authorizationServerUrl: 'https://auth2.example',
      authorizationServerMetadata: {
        issuer: 'https://auth2.example',
        authorization_endpoint: 'https://auth2.example/authorize',
        token_endpoint: 'https://auth2.example/token',
        response_types_supported: ['code'],
      },
    };
    await provider.saveDiscoveryState(moved);
    provider.saveCodeVerifier('verifier');
    // The callback leg: the SDK binds the code exchange to the issuer found before.
    expect(provider.discoveryState()).toEqual(moved);
    await provider.saveTokens({ access_token: 'new', token_type: 'Bearer' });
    // After the exchange, the next 401 of this login discovers again.
    expect(provider.discoveryState()).toBeUndefined();
    // The stored sign-in refreshes against the server this login found.
    expect(store.map.get('docs')?.discovery?.authorizationServerUrl).toBe('https://auth2.example');
  });
});
