import { randomBytes } from 'node:crypto';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  OAuthTokens,
} from '@modelcontextprotocol/client';
import { ToolSearchError } from '@tool-search/core';
import type { OAuthUpstreamAuth } from '../../config/upstream-auth-schema.js';
import { type SignInStore, type StoredSignIn, signInKey } from './credentials.js';

/** Who a provider signs in as, and where its sign-in is kept. */
export interface SignInTarget {
  /** The server's name in the config. */
  server: string;
  /** Its MCP endpoint. */
  url: string;
  /** Its `auth` (the interactive kind). */
  auth: OAuthUpstreamAuth;
  /** Where the sign-in is kept. */
  store: SignInStore;
  /** The profile signing in; absent: the operator. */
  profile?: string | undefined;
}

/** The client name the gateway registers and presents. */
const CLIENT_NAME = 'tool-search gateway';

/** The same scheme, host and port. */
function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}

/** Trailing slashes aside, the same URL text. */
function sameIssuer(a: string, b: string): boolean {
  return a.replace(/\/+$/, '') === b.replace(/\/+$/, '');
}

/**
 * The error of a server the gateway has no usable sign-in for: it names the server and
 * the command that signs in. Never carries a token.
 *
 * @param target - the server (and profile)
 * @param why - what is missing, e.g. `no sign-in is stored`
 * @returns the error, code `upstream_sign_in_required`
 * @throws nothing
 */
export function signInRequiredError(
  target: Pick<SignInTarget, 'server' | 'profile'>,
  why: string,
): ToolSearchError {
  const who = target.profile === undefined ? '' : ` --profile ${target.profile}`;
  return new ToolSearchError(
    'upstream_sign_in_required',
    `server '${target.server}' needs sign-in${target.profile === undefined ? '' : ` for profile '${target.profile}'`} (${why}): run tool-search-gateway login ${target.server}${who} --config <file>`,
    {
      data: {
        server: target.server,
        ...(target.profile === undefined ? {} : { profile: target.profile }),
      },
    },
  );
}

/**
 * The gateway's OAuth client for one server, handed to the MCP SDK's transport (which runs
 * the SDK's `auth()`: discovery, registration, PKCE, refresh, step-up). This object keeps
 * the sign-in (in a {@link SignInStore}), the PKCE verifier and `state` of a login, and
 * checks what the SDK leaves to it: the metadata's issuer, and the redirect's `state` and
 * `iss` (RFC 9207).
 */
export class UpstreamOAuthProvider implements OAuthClientProvider {
  readonly #target: SignInTarget;
  readonly #login: { redirectUrl: string; onAuthorizationUrl: (url: URL) => void } | undefined;
  #record: StoredSignIn;
  #verifier: string | undefined;
  #state: string | undefined;
  #discovery: OAuthDiscoveryState | undefined;
  /** A login's authorization request is out: its code exchange is bound to `#discovery`. */
  #awaitingCode = false;

  private constructor(
    target: SignInTarget,
    record: StoredSignIn,
    login: { redirectUrl: string; onAuthorizationUrl: (url: URL) => void } | undefined,
  ) {
    this.#target = target;
    this.#record = record;
    this.#login = login;
  }

  /**
   * A provider that uses and refreshes the stored sign-in (what `serve` hands its
   * transports). When there is none, or it was refused, the transport's request fails with
   * `upstream_sign_in_required`; it never starts a sign-in of its own.
   *
   * @param target - the server and store
   * @returns the provider, with the stored sign-in read
   * @throws nothing (a store that cannot be read reads as no sign-in)
   */
  static async forUse(target: SignInTarget): Promise<UpstreamOAuthProvider> {
    return new UpstreamOAuthProvider(target, await UpstreamOAuthProvider.#read(target), undefined);
  }

  /**
   * A provider for `login`: it starts a new sign-in (stored tokens are not reused; a stored
   * registration for the same redirect URI is), and hands the authorization URL to
   * `onAuthorizationUrl`.
   *
   * @param target - the server and store
   * @param login.redirectUrl - the loopback URI the authorization server redirects to
   * @param login.onAuthorizationUrl - called with the URL a person opens to sign in
   * @returns the provider
   * @throws nothing
   */
  static async forLogin(
    target: SignInTarget,
    login: { redirectUrl: string; onAuthorizationUrl: (url: URL) => void },
  ): Promise<UpstreamOAuthProvider> {
    const stored = await UpstreamOAuthProvider.#read(target);
    const { tokens: _tokens, expiresAt: _expiresAt, obtainedAt: _obtainedAt, ...rest } = stored;
    return new UpstreamOAuthProvider(target, { ...rest, redirectUrl: login.redirectUrl }, login);
  }

  static #fresh(target: SignInTarget): StoredSignIn {
    return {
      version: 1,
      server: target.server,
      serverUrl: target.url,
      ...(target.profile === undefined ? {} : { profile: target.profile }),
    };
  }

  /** The stored record if it is for this endpoint, else a fresh one. */
  static #usable(target: SignInTarget, stored: StoredSignIn | undefined): StoredSignIn {
    // A sign-in for another endpoint (the config's URL changed) is not presented to this one.
    return stored !== undefined && stored.serverUrl === target.url
      ? stored
      : UpstreamOAuthProvider.#fresh(target);
  }

  static async #read(target: SignInTarget): Promise<StoredSignIn> {
    const key = signInKey(target.server, target.profile);
    return UpstreamOAuthProvider.#usable(
      target,
      await target.store.load(key).catch(() => undefined),
    );
  }

  /**
   * Changes the record and stores it. In use, the change applies to what the store holds
   * now (another replica may have refreshed since this one read it), never to a stale copy;
   * a store that cannot be read is not written.
   */
  async #update(change: (record: StoredSignIn) => StoredSignIn): Promise<void> {
    const key = signInKey(this.#target.server, this.#target.profile);
    const base = this.#login
      ? this.#record
      : UpstreamOAuthProvider.#usable(this.#target, await this.#target.store.load(key));
    this.#record = change(base);
    await this.#target.store.save(key, this.#record);
  }

  get redirectUrl(): string | undefined {
    // A stored sign-in keeps the redirect URI it was made with; `serve` never redirects,
    // but the SDK takes a provider without one for a machine account.
    return this.#login?.redirectUrl ?? this.#record.redirectUrl ?? 'http://127.0.0.1/callback';
  }

  get clientMetadataUrl(): string | undefined {
    return this.#target.auth.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const auth = this.#target.auth;
    const method =
      auth.tokenEndpointAuthMethod ??
      (auth.clientSecret === undefined ? 'none' : 'client_secret_basic');
    // A loopback redirect: a native application (SEP-837, RFC 8252); SDK 1.32's type lacks it.
    const metadata: OAuthClientMetadata & { application_type: 'native' } = {
      application_type: 'native',
      client_name: CLIENT_NAME,
      redirect_uris: [this.redirectUrl ?? ''],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: method,
      ...(auth.scopes === undefined ? {} : { scope: auth.scopes.join(' ') }),
    };
    return metadata;
  }

  state(): string {
    this.#state = randomBytes(24).toString('base64url');
    return this.#state;
  }

  /** The `state` of the authorization request under way, for the redirect's check. */
  get expectedState(): string | undefined {
    return this.#state;
  }

  /** The authorization server metadata discovery found (for the redirect's `iss` check). */
  get discovered(): OAuthDiscoveryState | undefined {
    return this.#discovery ?? this.#record.discovery;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const auth = this.#target.auth;
    const stored = this.#record.clientInformation;
    if (auth.clientId !== undefined) {
      // Pre-registered: the stored copy only adds the issuer the SDK bound it to.
      if (stored?.client_id === auth.clientId) return stored;
      return {
        client_id: auth.clientId,
        ...(auth.clientSecret === undefined ? {} : { client_secret: auth.clientSecret }),
        ...(auth.tokenEndpointAuthMethod === undefined
          ? {}
          : { token_endpoint_auth_method: auth.tokenEndpointAuthMethod }),
      } as OAuthClientInformationMixed;
    }
    if (stored === undefined) return undefined;
    // A dynamic registration made for another loopback port: register again.
    const uris = 'redirect_uris' in stored ? stored.redirect_uris : undefined;
    if (this.#login && Array.isArray(uris) && !uris.includes(this.#login.redirectUrl)) {
      return undefined;
    }
    return stored;
  }

  async saveClientInformation(information: OAuthClientInformationMixed): Promise<void> {
    await this.#update((record) => ({ ...record, clientInformation: information }));
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    if (this.#login) return this.#record.tokens;
    // Replicas refresh the same sign-in: read what the store holds now.
    const current = await UpstreamOAuthProvider.#read(this.#target);
    this.#record = current;
    if (current.tokens === undefined) {
      throw signInRequiredError(this.#target, 'no sign-in is stored');
    }
    return current.tokens;
  }

  async saveTokens(tokens: OAuthTokens & { issuer?: string }): Promise<void> {
    const now = Date.now();
    const issuer = tokens.issuer ?? this.discovered?.authorizationServerUrl;
    const resource = this.discovered?.resourceMetadata?.resource;
    this.#awaitingCode = false;
    await this.#update((record) => {
      const { stepUpScope: _granted, expiresAt: _expired, ...rest } = record;
      return {
        ...rest,
        // A login keeps what it discovered, so that refreshes go to the same server.
        ...(this.#login && this.#discovery !== undefined ? { discovery: this.#discovery } : {}),
        tokens,
        obtainedAt: now,
        ...(issuer === undefined ? {} : { issuer }),
        ...(resource === undefined ? {} : { resource }),
        ...(tokens.expires_in === undefined ? {} : { expiresAt: now + tokens.expires_in * 1000 }),
      };
    });
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const scope = authorizationUrl.searchParams.get('scope') ?? undefined;
    if (!this.#login) {
      // A step-up (or a refused sign-in) needs a person: remember the scopes it asked for,
      // so that the next login asks for them.
      const stepUp = this.#record.tokens !== undefined && scope !== undefined;
      if (stepUp) {
        await this.#update((record) => ({ ...record, stepUpScope: scope })).catch(() => {});
      }
      throw signInRequiredError(
        this.#target,
        stepUp
          ? `a call needs more scopes (${scope})`
          : 'the stored sign-in was refused or has expired',
      );
    }
    const wanted = this.#record.stepUpScope;
    if (wanted !== undefined) {
      const scopes = new Set([...(scope ?? '').split(' '), ...wanted.split(' ')].filter(Boolean));
      authorizationUrl.searchParams.set('scope', [...scopes].join(' '));
    }
    this.#login.onAuthorizationUrl(authorizationUrl);
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.#verifier = codeVerifier;
    this.#awaitingCode = this.#login !== undefined;
  }

  codeVerifier(): string {
    if (this.#verifier === undefined) {
      throw new ToolSearchError('upstream_sign_in_failed', 'no sign-in is under way');
    }
    return this.#verifier;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    const issuer = state.authorizationServerMetadata?.issuer;
    // With protected resource metadata the server named its authorization server, and the
    // metadata must name the same issuer (RFC 8414 3.3). Without it (the 2025-03-26
    // fallback) the server's origin was only a guess: the issuer must be of that origin.
    const mismatch =
      issuer !== undefined &&
      (state.resourceMetadata === undefined
        ? !sameOrigin(issuer, state.authorizationServerUrl)
        : !sameIssuer(issuer, state.authorizationServerUrl));
    if (mismatch) {
      throw new ToolSearchError(
        'upstream_sign_in_failed',
        `server '${this.#target.server}': the authorization server metadata fetched for ${state.authorizationServerUrl} names another issuer (${issuer}); refused`,
        { data: { server: this.#target.server } },
      );
    }
    this.#discovery = state;
    if (this.#login) return;
    await this.#update((record) => ({ ...record, discovery: state })).catch(() => {});
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    // A login discovers anew at each 401 (the server may have moved to another
    // authorization server, SEP-2352) but keeps what it found for its callback leg (the SDK
    // binds the code exchange to that issuer); a refresh reuses what the sign-in found.
    if (this.#login) return this.#awaitingCode ? this.#discovery : undefined;
    return this.#record.discovery;
  }

  async invalidateCredentials(
    scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery',
  ): Promise<void> {
    if (scope === 'verifier') {
      this.#verifier = undefined;
      return;
    }
    if (!this.#login && (scope === 'all' || scope === 'tokens')) {
      // Another replica may have refreshed meanwhile (a rotated refresh token refused here
      // is its doing): keep what it stored, and let the SDK try with that.
      const current = await UpstreamOAuthProvider.#read(this.#target);
      const held = this.#record.tokens?.access_token;
      if (current.tokens !== undefined && current.tokens.access_token !== held) {
        this.#record = current;
        return;
      }
    }
    await this.#update((record) => {
      const next: StoredSignIn = { ...record };
      if (scope === 'all' || scope === 'tokens') {
        delete next.tokens;
        delete next.expiresAt;
        delete next.obtainedAt;
      }
      if (scope === 'all' || scope === 'client') delete next.clientInformation;
      if (scope === 'all' || scope === 'discovery') delete next.discovery;
      return next;
    }).catch(() => {});
  }
}
