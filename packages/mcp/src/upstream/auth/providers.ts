import {
  ClientCredentialsProvider,
  type OAuthClientProvider,
  PrivateKeyJwtProvider,
} from '@modelcontextprotocol/client';
import type { UpstreamAuthConfig } from '../../config/upstream-auth-schema.js';
import type { UpstreamAuthProviderFactory } from '../pool-types.js';
import type { SignInStore } from './credentials.js';
import { UpstreamOAuthProvider } from './provider.js';

/**
 * The OAuth client of a machine account (the client credentials grant, RFC 6749 4.4):
 * `client_secret_basic` with a secret, `private_key_jwt` (RFC 7523) with a key. It needs
 * no login: it gets a token at the first 401 and a new one whenever the server refuses it.
 *
 * @param auth - the entry's `client_credentials` auth
 * @returns the SDK's provider for it
 * @throws nothing
 */
export function createMachineAccountProvider(
  auth: Extract<UpstreamAuthConfig, { type: 'client_credentials' }>,
): OAuthClientProvider {
  const scope = auth.scopes?.join(' ');
  const common = {
    clientId: auth.clientId,
    clientName: 'tool-search gateway',
    ...(scope === undefined ? {} : { scope }),
  };
  if (auth.privateKeyJwt !== undefined) {
    const key = auth.privateKeyJwt.privateKey.trim();
    return new PrivateKeyJwtProvider({
      ...common,
      privateKey: key.startsWith('{') ? (JSON.parse(key) as Record<string, unknown>) : key,
      algorithm: auth.privateKeyJwt.algorithm,
    });
  }
  return new ClientCredentialsProvider({ ...common, clientSecret: auth.clientSecret ?? '' });
}

/**
 * The pool's `authProvider` option for `serve`: each server with `auth` gets an OAuth
 * client over the stored sign-ins (`oauth`: uses and refreshes what `login` stored, and
 * fails with `upstream_sign_in_required` when there is none or it was refused), or a
 * machine account's (`client_credentials`). A machine account's provider lives as long as
 * the factory, so its token outlives a reconnect.
 *
 * @param options.store - where `login` stored the sign-ins
 * @param options.profile - use this profile's sign-ins (absent: the operator's); a connection
 * the pool opens for one profile (`perProfile`) uses that profile's, whatever this says
 * @returns the factory
 * @throws nothing
 */
export function createUpstreamAuthProviders(options: {
  store: SignInStore;
  profile?: string;
}): UpstreamAuthProviderFactory {
  const machines = new Map<string, { auth: UpstreamAuthConfig; provider: OAuthClientProvider }>();
  return async (server, entry, who) => {
    const { auth } = entry;
    if (auth.type === 'client_credentials') {
      const known = machines.get(server);
      if (known !== undefined && known.auth === auth) return known.provider;
      const provider = createMachineAccountProvider(auth);
      machines.set(server, { auth, provider });
      return provider;
    }
    return UpstreamOAuthProvider.forUse({
      server,
      url: entry.url,
      auth,
      store: options.store,
      // A connection of one profile (`perProfile`) uses that profile's sign-in only.
      ...(who !== undefined
        ? { profile: who.profile }
        : options.profile === undefined
          ? {}
          : { profile: options.profile }),
    });
  };
}
