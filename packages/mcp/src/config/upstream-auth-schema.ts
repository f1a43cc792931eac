import { z } from 'zod/v4';

// The `auth` field of an HTTP entry of `mcpServers`: how the gateway signs in to a remote
// server that needs OAuth (the MCP authorization spec). Tokens are never in the config:
// `login` stores them in the gateway's state folder (or the shared store), `serve` uses
// and refreshes them. Client credentials (machine accounts) need no login.

const text = z.string().min(1, 'must not be empty');

/** The schema of an interactive (authorization code + PKCE) sign-in. */
export const oauthAuthSchema = z.strictObject({
  type: z.literal('oauth'),
  /** A client registered beforehand with the authorization server (no registration then). */
  clientId: text.optional(),
  /** Its secret, for a confidential client (`client_secret_basic` or `_post`). */
  clientSecret: text.optional(),
  /**
   * The HTTPS URL of the gateway's Client ID Metadata Document: presented as the client id
   * to an authorization server that supports them (before dynamic registration).
   */
  clientMetadataUrl: z.url({ protocol: /^https$/, message: 'must be an https URL' }).optional(),
  /** Scopes to ask for when neither the server's 401 nor its metadata names any. */
  scopes: z.array(text).optional(),
  /** How the client authenticates at the token endpoint. @defaultValue the best both support */
  tokenEndpointAuthMethod: z.enum(['client_secret_basic', 'client_secret_post', 'none']).optional(),
  /** The loopback port `login` waits on for the redirect. @defaultValue a free port */
  redirectPort: z.number().int().min(0).max(65_535).optional(),
  /**
   * Each profile signs in on its own (`login <server> --profile P`): a session or credential
   * of profile P reaches the server over P's own connection with P's own tokens, and sees the
   * tools the server lists for P; a profile with no sign-in of its own gets
   * `upstream_sign_in_required`, never the operator's tokens. Sessions of no profile use the
   * operator's sign-in. @defaultValue false: one connection, the operator's sign-in, for all
   */
  perProfile: z.boolean().optional(),
});

/** The schema of a machine account's sign-in (the client credentials grant). */
export const clientCredentialsAuthSchema = z.strictObject({
  type: z.literal('client_credentials'),
  clientId: text,
  /** The secret (`client_secret_basic`); or give `privateKeyJwt`. */
  clientSecret: text.optional(),
  /** Sign a JWT assertion with this key (`private_key_jwt`, RFC 7523) instead of a secret. */
  privateKeyJwt: z
    .strictObject({
      /** The private key, PEM (or a JWK as JSON text). */
      privateKey: text,
      /** The JWS algorithm, e.g. `ES256` or `RS256`. */
      algorithm: text,
    })
    .optional(),
  /** Scopes to ask for. */
  scopes: z.array(text).optional(),
  /** Refused below with a clear message: a machine account is one identity, not a person's. */
  perProfile: z.boolean().optional(),
});

/** The schema of `auth`: `'oauth'` is shorthand for `{ type: 'oauth' }`. */
export const upstreamAuthSchema = z
  .union([z.literal('oauth'), oauthAuthSchema, clientCredentialsAuthSchema])
  .transform((value) => (value === 'oauth' ? { type: 'oauth' as const } : value))
  .refine(
    (value) =>
      value.type !== 'client_credentials' ||
      (value.clientSecret === undefined) !== (value.privateKeyJwt === undefined),
    { message: 'client_credentials needs exactly one of clientSecret and privateKeyJwt' },
  )
  .refine((value) => value.type !== 'client_credentials' || value.perProfile === undefined, {
    message:
      'perProfile is for interactive sign-in (type "oauth"): a machine account (client_credentials) is one identity for every profile',
  });

/** An interactive sign-in of an entry's `auth`, parsed (`'oauth'` reads as `{ type: 'oauth' }`). */
export interface OAuthUpstreamAuthConfig extends z.output<typeof oauthAuthSchema> {}

/** A machine account's sign-in of an entry's `auth`, parsed. */
export interface ClientCredentialsUpstreamAuthConfig
  extends z.output<typeof clientCredentialsAuthSchema> {}

/** How the gateway signs in to one HTTP server (the parsed `auth` of its entry). */
export type UpstreamAuthConfig = OAuthUpstreamAuthConfig | ClientCredentialsUpstreamAuthConfig;

/** An interactive sign-in (`login`), parsed. */
export type OAuthUpstreamAuth = Extract<UpstreamAuthConfig, { type: 'oauth' }>;

/** A machine account's sign-in, parsed. */
export type ClientCredentialsUpstreamAuth = Extract<
  UpstreamAuthConfig,
  { type: 'client_credentials' }
>;
