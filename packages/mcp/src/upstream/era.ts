import { createHash } from 'node:crypto';
import {
  type PriorDiscovery,
  ProtocolError,
  SdkError,
  SdkErrorCode,
} from '@modelcontextprotocol/client';
import { describeError } from '@tool-search/core/internal';
import type { UpstreamClient } from './client.js';

/**
 * How long a `legacy` verdict is trusted before the next connect probes again: an
 * upgraded server still answers `initialize`, so only time retires it. 1 hour.
 */
export const LEGACY_VERDICT_HORIZON_MS = 3_600_000;

/**
 * The era of each upstream, decided once by a probe and reused by every later connect of
 * the same origin (an HTTP URL with the same credential; a stdio command with the same
 * arguments, environment and folder; an in-process entry by name), so that a restart does
 * not probe again. A modern verdict holds the server's `server/discover` answer.
 *
 * @internal
 */
export interface EraCache {
  /** The verdict for a key, while it is fresh. */
  get(key: string): PriorDiscovery | undefined;
  /** Records what a probe found. */
  set(key: string, verdict: PriorDiscovery): void;
  /** Forgets a verdict (a connect with it failed: the next one probes). */
  delete(key: string): void;
}

/**
 * A verdict cache in memory.
 *
 * @param options.legacyHorizonMs - how long a legacy verdict holds
 * @param options.now - the clock
 * @returns the cache
 * @throws nothing
 * @internal
 */
export function createEraCache(
  options: { legacyHorizonMs?: number; now?: () => number } = {},
): EraCache {
  const horizon = options.legacyHorizonMs ?? LEGACY_VERDICT_HORIZON_MS;
  const now = options.now ?? Date.now;
  const verdicts = new Map<string, { verdict: PriorDiscovery; storedAt: number }>();
  return {
    get(key) {
      const entry = verdicts.get(key);
      if (entry === undefined) return undefined;
      if (entry.verdict.kind === 'legacy' && now() - entry.storedAt >= horizon) {
        verdicts.delete(key);
        return undefined;
      }
      return entry.verdict;
    },
    set(key, verdict) {
      verdicts.set(key, { verdict, storedAt: now() });
    },
    delete(key) {
      verdicts.delete(key);
    },
  };
}

const hash = (value: unknown) =>
  createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 32);

/**
 * A short, stable digest of the credential an HTTP entry presents (its headers), so that
 * what one credential was told (a `private` list, a discover answer) is never read under
 * another. Header names are compared case-insensitively; values are not kept.
 *
 * @param headers - the entry's headers
 * @returns the digest (`''` for none)
 * @throws nothing
 * @internal
 */
export function credentialKey(headers: Readonly<Record<string, string>> | undefined): string {
  const entries = Object.entries(headers ?? {})
    .map(([name, value]) => [name.toLowerCase(), value] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.length === 0 ? '' : hash(entries);
}

/**
 * The key under which an entry's era is cached.
 *
 * @param name - the server's name in the config (used for in-process entries only)
 * @param server - the entry
 * @returns the key
 * @throws nothing
 * @internal
 */
export function eraKey(
  name: string,
  server:
    | { transport: unknown }
    | {
        command: string;
        args?: readonly string[] | undefined;
        env?: Readonly<Record<string, string>> | undefined;
        cwd?: string | undefined;
      }
    | { url: string; headers?: Readonly<Record<string, string>> | undefined },
): string {
  if ('transport' in server) return `in-process:${name}`;
  if ('command' in server) {
    const env = Object.entries(server.env ?? {}).sort(([a], [b]) => (a < b ? -1 : 1));
    return `stdio:${hash([server.command, server.args ?? [], server.cwd ?? '', env])}`;
  }
  return `http:${new URL(server.url).href}#${credentialKey(server.headers)}`;
}

/**
 * The verdict a connected client landed on, to cache.
 *
 * @param client - a connected client in the negotiating mode
 * @returns `modern` with the discover answer, or `legacy`
 * @throws nothing
 * @internal
 */
export function verdictOf(client: UpstreamClient): PriorDiscovery {
  const discover = client.getDiscoverResult();
  return client.getProtocolEra() === 'modern' && discover !== undefined
    ? { kind: 'modern', discover }
    : { kind: 'legacy' };
}

/**
 * Whether a connect failed in the negotiation itself (no era could be agreed), as opposed
 * to an outage, a timeout or a refused credential.
 *
 * @param error - what `connect` threw
 * @returns true for an era failure
 * @throws nothing
 * @internal
 */
export function isEraFailure(error: unknown): boolean {
  if (error instanceof SdkError) return error.code === SdkErrorCode.EraNegotiationFailed;
  // -32022: the server refused the protocol version (a 2026-only server met `initialize`).
  return error instanceof ProtocolError && error.code === -32022;
}

/**
 * Says why a connect failed in words that name the eras, for `inspect` and health.
 *
 * @param error - what `connect` threw
 * @returns the reason
 * @throws nothing
 * @internal
 */
export function describeConnectError(error: unknown): string {
  // A server's garbage can make the SDK's message long: the start says what happened.
  const full = describeError(error);
  const text = full.length > 400 ? `${full.slice(0, 400)}…` : full;
  if (error instanceof ProtocolError && error.code === -32022) {
    return `the server refused the 2025 handshake (${text}) and did not answer the 2026-07-28 probe (server/discover) in a usable way: it cannot be reached in either era`;
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.EraNegotiationFailed) {
    return `no protocol era could be agreed with the server (neither 2026-07-28 by server/discover nor 2025 by initialize): ${text}`;
  }
  return full;
}
