import { ToolSearchError } from '@tool-search/core';
import type { GatewayProfile } from '@tool-search/mcp/config';
import { resolveHttpLimits } from './http-limits.js';
import { DEFAULT_IDLE_TIMEOUT_MS, type GatewayHttpOptions } from './http-options.js';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** The shortest bearer token the gateway accepts. */
export const MIN_TOKEN_LENGTH = 16;

/**
 * Whether a bind address or host name only reaches this machine: `localhost`,
 * `127.x.y.z`, `::1` or `[::1]`.
 *
 * @param host - a host name or address, as given to `listenHttp` or in a `Host` header
 * @returns whether it is a loopback address
 * @throws nothing
 */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * The origin a browser would send for `text` (scheme, host and port), if `text` is a
 * URL with one.
 *
 * @param text - a URL or origin
 * @returns its serialized origin, or `undefined` when it has none
 * @throws nothing
 */
export function serializedOrigin(text: string): string | undefined {
  try {
    const origin = new URL(text).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/**
 * Checks an allowed browser origin: it must be an origin as browsers send it (scheme,
 * host and port only, no path, no trailing slash, never `*`).
 *
 * @param origin - the allowed origin, e.g. `http://localhost:6274`
 * @throws {@link ToolSearchError} `invalid_config` saying what a valid origin looks
 * like, with the origin it probably meant when there is one
 */
export function checkAllowedOrigin(origin: string): void {
  const suggestion = serializedOrigin(origin);
  if (suggestion === origin) return;
  throw new ToolSearchError(
    'invalid_config',
    `The allowed origin '${origin}' is not an origin as browsers send it: scheme, host and port only${
      suggestion ? ` (did you mean '${suggestion}'?)` : ', e.g. http://localhost:6274'
    }.`,
  );
}

/**
 * Checks the options of an HTTP listener against the config before anything starts:
 * `GatewayServer.listenHttp` and {@link startGateway} call it, so that a bad option is
 * refused before any upstream server is spawned.
 *
 * @param options - the HTTP options
 * @param config - the gateway config's `profiles` (their tokens count as tokens)
 * @returns the number of tokens (principals) configured
 * @throws {@link ToolSearchError} `invalid_config` for an `idleTimeoutMs` that is not a
 * number of 0 or more, an allowed origin that is not a serialized origin, a token
 * shorter than 16 characters, a non-loopback `host` without any token, a session,
 * connection or timeout limit that is not a whole number of 1 or more, an unknown `eras`
 * or a `modernTtlMs` outside 0 to a day
 */
export function validateGatewayHttpOptions(
  options: GatewayHttpOptions,
  config: { profiles?: Readonly<Record<string, GatewayProfile>> } = {},
): number {
  const bindHost = options.host ?? '127.0.0.1';
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  if (!Number.isFinite(idleTimeoutMs) || idleTimeoutMs < 0) {
    throw new ToolSearchError(
      'invalid_config',
      `idleTimeoutMs must be a number of milliseconds, 0 or more (0 never closes idle sessions), got ${idleTimeoutMs}.`,
    );
  }
  for (const origin of options.allowedOrigins ?? []) checkAllowedOrigin(origin);
  if (options.token !== undefined && options.token.length < MIN_TOKEN_LENGTH) {
    throw new ToolSearchError(
      'invalid_config',
      `The HTTP token must be at least ${MIN_TOKEN_LENGTH} characters long.`,
    );
  }
  const tokens =
    (options.token === undefined ? 0 : 1) +
    Object.values(config.profiles ?? {}).filter((profile) => profile.token !== undefined).length;
  if (!isLoopbackHost(bindHost) && tokens === 0) {
    throw new ToolSearchError(
      'invalid_config',
      `Refusing to serve HTTP on ${bindHost} without a bearer token: anyone who can reach it could call your tools. Pass a token (at least 16 characters), give the profiles tokens, or bind to 127.0.0.1.`,
    );
  }
  if (options.eras !== undefined && !['both', 'modern', 'legacy'].includes(options.eras)) {
    throw new ToolSearchError(
      'invalid_config',
      `eras must be 'both', 'modern' (2026-07-28 only) or 'legacy' (2025 sessions only), got ${JSON.stringify(options.eras)}.`,
      { data: { field: 'eras' } },
    );
  }
  const ttl = options.modernTtlMs;
  if (ttl !== undefined && !(Number.isInteger(ttl) && ttl >= 0 && ttl <= 86_400_000)) {
    throw new ToolSearchError(
      'invalid_config',
      `modernTtlMs must be a whole number of milliseconds from 0 to 86400000 (a day), got ${ttl}.`,
      { data: { field: 'modernTtlMs' } },
    );
  }
  resolveHttpLimits(options, tokens);
  return tokens;
}
