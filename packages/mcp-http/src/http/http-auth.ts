import { createHash, timingSafeEqual } from 'node:crypto';
import type { GatewayProfile } from '@tool-search/mcp/config';
import type { HttpPrincipal, HttpStep } from './http-chain.js';
import { reply } from './http-reply.js';

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** The tokens a listener accepts, each with the profile it selects. */
export interface HttpTokens {
  /** How many tokens there are (0: no authentication). */
  readonly size: number;
  /**
   * Who a request is, by its bearer token (compared in constant time).
   *
   * @returns the principal, or undefined for a missing or unknown token
   */
  authenticate(authorization: string | undefined): HttpPrincipal | undefined;
  /**
   * A key that only those who hold the config's tokens can make (a hash of every token's
   * digest): the same on every replica of one config, e.g. to sign console sessions.
   */
  readonly secret: Buffer;
}

/**
 * The tokens of a listener: the gateway's own `token` (principal `default`, the
 * default profile) and each profile's `token` (principal `profile:<name>`).
 *
 * @param options.token - the gateway's token
 * @param options.profiles - the config's profiles, or a function that answers the profiles
 * in force (read at each request: the tokens follow a reload of the config)
 * @param options.defaultProfile - the profile of the gateway token and of no token
 * @returns the tokens
 * @throws nothing
 */
export function createHttpTokens(options: {
  token: string | undefined;
  profiles:
    | Readonly<Record<string, GatewayProfile>>
    | (() => Readonly<Record<string, GatewayProfile>>);
  defaultProfile: string | undefined;
}): HttpTokens {
  const profilesNow =
    typeof options.profiles === 'function'
      ? options.profiles
      : () => options.profiles as Readonly<Record<string, GatewayProfile>>;
  type Table = Map<string, { digest: Buffer; profile: string | undefined }>;
  const tableOf = (profiles: Readonly<Record<string, GatewayProfile>>): Table => {
    const tokens: Table = new Map();
    if (options.token !== undefined) {
      tokens.set('default', { digest: digest(options.token), profile: options.defaultProfile });
    }
    for (const [name, profile] of Object.entries(profiles)) {
      if (profile.token !== undefined)
        tokens.set(`profile:${name}`, { digest: digest(profile.token), profile: name });
    }
    return tokens;
  };
  // The table follows the profiles in force: a reload that replaces them replaces it
  // in place, so a token added works at once and one removed is refused at once.
  let seen = profilesNow();
  let tokens = tableOf(seen);
  const current = (): Table => {
    const profiles = profilesNow();
    if (profiles !== seen) {
      seen = profiles;
      tokens = tableOf(profiles);
    }
    return tokens;
  };
  // Whether the listener authenticates is fixed when it starts: one started without
  // tokens stays open, one started with tokens never opens (even with none left).
  const size = tokens.size;
  const secret = createHash('sha256').update('tool-search http tokens v1');
  for (const [principal, entry] of [...tokens].sort(([a], [b]) => (a < b ? -1 : 1))) {
    secret.update(principal).update(entry.digest);
  }
  return {
    size,
    secret: secret.digest(),
    authenticate(authorization) {
      if (size === 0) return { principal: '', profile: options.defaultProfile };
      const match = /^Bearer\s+(.+)$/i.exec(authorization ?? '');
      if (!match) return undefined;
      const presented = digest(match[1]!.trim());
      for (const [principal, entry] of current()) {
        if (timingSafeEqual(presented, entry.digest)) return { principal, profile: entry.profile };
      }
      return undefined;
    },
  };
}

/**
 * The authentication step: a request without a valid bearer token is refused (401);
 * otherwise its principal goes on the context.
 *
 * @param tokens - the listener's tokens
 * @returns the step
 * @throws nothing
 */
export function authStep(tokens: HttpTokens): HttpStep {
  return (context) => {
    const auth = tokens.authenticate(context.req.headers.authorization);
    if (auth !== undefined) {
      context.auth = auth;
      return false;
    }
    reply(context.res, 401, 'Unauthorized: a valid bearer token is required', {
      'www-authenticate': 'Bearer realm="tool-search-gateway"',
    });
    return true;
  };
}
