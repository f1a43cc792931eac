import type { FetchLike } from '@modelcontextprotocol/client';

/** How long a discovery, registration or token request may take. */
export const DEFAULT_AUTH_REQUEST_TIMEOUT_MS = 15_000;

/** Options of {@link createAuthAwareFetch}. */
export interface AuthAwareFetchOptions {
  /** The deadline of the requests that are not to the MCP endpoint. @defaultValue 15000 */
  timeoutMs?: number | undefined;
  /** The fetch underneath. @defaultValue the global `fetch` */
  base?: FetchLike | undefined;
}

/**
 * A fetch for an MCP transport with a deadline on every request that is not to the MCP
 * endpoint itself (metadata, registration, token requests): a slow authorization server
 * fails the sign-in instead of hanging it. Requests to the endpoint keep no deadline (an
 * SSE stream stays open for as long as it is used).
 *
 * @param endpoint - the MCP endpoint
 * @param options - the deadline and the fetch underneath
 * @returns the fetch
 * @throws nothing when made; the fetch rejects with a `TimeoutError` past the deadline
 */
export function createAuthAwareFetch(
  endpoint: string,
  options: AuthAwareFetchOptions = {},
): FetchLike {
  const target = new URL(endpoint);
  const timeoutMs = options.timeoutMs ?? DEFAULT_AUTH_REQUEST_TIMEOUT_MS;
  const base: FetchLike = options.base ?? ((input, init) => fetch(input, init));
  return (input, init) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    if (url.origin === target.origin && url.pathname === target.pathname) {
      return base(input, init);
    }
    const signal = AbortSignal.timeout(timeoutMs);
    return base(input, {
      ...init,
      signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal,
    });
  };
}
