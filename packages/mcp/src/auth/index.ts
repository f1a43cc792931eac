/**
 * Sign-in to upstream servers that need OAuth (the MCP authorization spec), for the
 * gateway as an OAuth 2.1 client: the OAuth client the pool hands its HTTP transports
 * ({@link createUpstreamAuthProviders}), the interactive login ({@link signInToUpstream}),
 * and where sign-ins are kept ({@link createFileSignInStore}, owner-only files; the Redis
 * one, encrypted, is `openRedisSignInStore` in `@tool-search/mcp/store/redis`). The
 * protocol itself (discovery, registration, PKCE, refresh, step-up) is the MCP SDK's
 * `auth()`.
 *
 * @example
 * ```ts
 * import { createUpstreamPool } from '@tool-search/mcp';
 * import { createFileSignInStore, createUpstreamAuthProviders } from '@tool-search/mcp/auth';
 *
 * const store = createFileSignInStore('.tool-search/sign-ins');
 * const pool = createUpstreamPool(config, { authProvider: createUpstreamAuthProviders({ store }) });
 * ```
 *
 * @packageDocumentation
 */
export type {
  ClientCredentialsUpstreamAuth,
  OAuthUpstreamAuth,
  UpstreamAuthConfig,
} from '../config/upstream-auth-schema.js';
export type { AuthAwareFetchOptions } from '../upstream/auth/auth-fetch.js';
export {
  createAuthAwareFetch,
  DEFAULT_AUTH_REQUEST_TIMEOUT_MS,
} from '../upstream/auth/auth-fetch.js';
export type { AuthorizationResponse, CallbackServer } from '../upstream/auth/callback-server.js';
export type { SignInStore, SignInSummary, StoredSignIn } from '../upstream/auth/credentials.js';
export { signInKey, summarizeSignIn } from '../upstream/auth/credentials.js';
export { createFileSignInStore } from '../upstream/auth/file-store.js';
export type { SignInTarget } from '../upstream/auth/provider.js';
export { signInRequiredError, UpstreamOAuthProvider } from '../upstream/auth/provider.js';
export {
  createMachineAccountProvider,
  createUpstreamAuthProviders,
} from '../upstream/auth/providers.js';
export type { SealedValues } from '../upstream/auth/sealed-store.js';
export {
  createSealedSignInStore,
  parseSignInKey,
  SIGN_IN_KEY_ENV,
} from '../upstream/auth/sealed-store.js';
export type { SignInOptions } from '../upstream/auth/sign-in.js';
export {
  MAX_SIGN_IN_ROUNDS,
  signInToUpstream,
  signOutOfUpstream,
} from '../upstream/auth/sign-in.js';
export type {
  SignInBroker,
  SignInBrokerOptions,
  SignInCallbackOutcome,
  SignInStartRequest,
  StartedSignIn,
} from '../upstream/auth/sign-in-broker.js';
export {
  createSignInBroker,
  DEFAULT_MAX_PENDING_SIGN_INS,
  DEFAULT_SIGN_IN_TTL_MS,
} from '../upstream/auth/sign-in-broker.js';
