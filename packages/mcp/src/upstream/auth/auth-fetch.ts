import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

/** How long a discovery, registration or token request may take. */
export const DEFAULT_AUTH_REQUEST_TIMEOUT_MS = 15_000;

/**
 * A fetch for an MCP transport with a deadline on every request that is not to the MCP
 * endpoint itself (metadata, registration, token requests): a slow authorization server
 * fails the sign-in instead of hanging it. Requests to the endpoint keep no deadline (an
 * SSE stream stays open for as long as it is used).
 *
 * @param endpoint - the MCP endpoint
 * @param timeoutMs - the deadline of the other requests
 * @returns the fetch
 * @throws nothing when made; the fetch rejects with a `TimeoutError` past the deadline
 */
export function createAuthAwareFetch(
  endpoint: string,
  timeoutMs: number = DEFAULT_AUTH_REQUEST_TIMEOUT_MS,
): FetchLike {
  const target = new URL(endpoint);
  return (input, init) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    if (url.origin === target.origin && url.pathname === target.pathname) {
      return fetch(input, init);
    }
    const signal = AbortSignal.timeout(timeoutMs);
    return fetch(input, {
      ...init,
      signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal,
    });
  };
}
