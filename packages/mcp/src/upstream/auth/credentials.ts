import type {
  OAuthClientInformationMixed,
  OAuthDiscoveryState,
  OAuthTokens,
} from '@modelcontextprotocol/client';

/**
 * What the gateway keeps for one sign-in (a server, and a profile or the operator): the
 * tokens, the client registration and the discovery results. Secret: it never leaves the
 * credential store but as the `Authorization` header of a request to that server.
 */
export interface StoredSignIn {
  /** The format of this record. */
  version: 1;
  /** The server's name in the config. */
  server: string;
  /** The profile that signed in; absent: the operator (the gateway's own sign-in). */
  profile?: string;
  /** The MCP endpoint the tokens were obtained for: a record for another URL is not used. */
  serverUrl: string;
  /** The redirect URI the authorization code was sent to (refreshes present it again). */
  redirectUrl?: string;
  /** The authorization server that issued the tokens (as discovery found it). */
  issuer?: string;
  /** The resource indicator the tokens were asked for (RFC 8707). */
  resource?: string;
  /** The tokens, as the token endpoint answered them, plus the SDK's `issuer` stamp. */
  tokens?: OAuthTokens & { issuer?: string };
  /** When the access token was obtained (epoch ms). */
  obtainedAt?: number;
  /** When the access token expires (epoch ms), when the token endpoint said. */
  expiresAt?: number;
  /** The client registration (dynamic, a metadata document URL, or pre-registered). */
  clientInformation?: OAuthClientInformationMixed & { issuer?: string };
  /**
   * The scopes a request of `serve` was refused for (`insufficient_scope`, a step-up that
   * needs a person): the next `login` asks for them too.
   */
  stepUpScope?: string;
  /** What discovery found, so that a refresh skips it. */
  discovery?: OAuthDiscoveryState;
}

/**
 * Where sign-ins are kept: the gateway's state folder (owner-only files), or the shared
 * store of replicas (encrypted). Keys are `server` or `server@profile`.
 */
export interface SignInStore {
  /** The record, or undefined when there is none (or it cannot be read). */
  load(key: string): Promise<StoredSignIn | undefined>;
  /** Writes the record whole. */
  save(key: string, record: StoredSignIn): Promise<void>;
  /** Removes the record; true when there was one. */
  delete(key: string): Promise<boolean>;
}

/**
 * The key of a sign-in in a {@link SignInStore}.
 *
 * @param server - the server's name
 * @param profile - the profile; absent for the operator's sign-in
 * @returns `server`, or `server@profile`
 * @throws nothing
 */
export function signInKey(server: string, profile?: string): string {
  return profile === undefined ? server : `${server}@${profile}`;
}

/** What `inspect` and the console may show of a sign-in: never a token. */
export interface SignInSummary {
  /** `signed-in`: an access token is held; `needs-sign-in`: none (or it was refused). */
  state: 'signed-in' | 'needs-sign-in';
  /** When the access token expires (epoch ms), when known. */
  expiresAt?: number;
  /** Whether a refresh token is held (so an expired access token renews itself). */
  refreshable: boolean;
  /** The authorization server. */
  issuer?: string;
  /** The scopes granted, when the token endpoint said. */
  scope?: string;
}

/**
 * The public summary of a stored sign-in: its state, expiry, issuer and scopes, never a
 * token or a client secret.
 *
 * @param record - the stored record, or undefined
 * @returns the summary
 * @throws nothing
 */
export function summarizeSignIn(record: StoredSignIn | undefined): SignInSummary {
  const tokens = record?.tokens;
  if (tokens === undefined) return { state: 'needs-sign-in', refreshable: false };
  return {
    state: 'signed-in',
    refreshable: tokens.refresh_token !== undefined,
    ...(record?.expiresAt === undefined ? {} : { expiresAt: record.expiresAt }),
    ...(record?.issuer === undefined ? {} : { issuer: record.issuer }),
    ...(tokens.scope === undefined ? {} : { scope: tokens.scope }),
  };
}
