import {
  type AuthProvider,
  type FetchLike,
  type OAuthClientProvider,
  SSEClientTransport,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import {
  StdioClientTransport,
  type StdioServerParameters,
} from '@modelcontextprotocol/client/stdio';

/** The two HTTP transports of MCP: Streamable HTTP and the old HTTP+SSE. */
export type HttpTransportKind = 'streamable-http' | 'sse';

/**
 * Everything that shapes one HTTP transport to an upstream, in one object so that each
 * concern plugs in its own field (sign-in passes `authProvider`; tests pass `fetch`).
 *
 * @internal
 */
export interface HttpTransportOptions {
  /** Which of the two transports. */
  kind: HttpTransportKind;
  /** The server's MCP endpoint. */
  url: URL;
  /** Headers sent with every request (the entry's `headers`). */
  headers?: Readonly<Record<string, string>> | undefined;
  /** Signs requests in (OAuth or another scheme); absent: none. */
  authProvider?: AuthProvider | OAuthClientProvider | undefined;
  /** The `fetch` the transport uses. @defaultValue the global `fetch` */
  fetch?: FetchLike | undefined;
  /**
   * The OAuth provider checks the authorization server metadata's `issuer` itself (so that
   * the 2025-03-26 fallback, where the server's origin is only a guess, is judged by
   * origin): the SDK's strict RFC 8414 3.3 check is left out. @defaultValue false
   */
  providerChecksIssuer?: boolean | undefined;
}

/**
 * Makes one unstarted HTTP transport to an upstream: the only place that does, so that
 * options added later (sign-in, proxies) apply to every HTTP connection of the pool.
 *
 * @param options - see {@link HttpTransportOptions}
 * @returns the transport
 * @throws nothing
 * @internal
 */
export function createHttpTransport(
  options: HttpTransportOptions,
): StreamableHTTPClientTransport | SSEClientTransport {
  const requestInit: RequestInit = { headers: { ...(options.headers ?? {}) } };
  const common = {
    requestInit,
    ...(options.authProvider === undefined ? {} : { authProvider: options.authProvider }),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    ...(options.providerChecksIssuer === true ? { skipIssuerMetadataValidation: true } : {}),
  };
  return options.kind === 'sse'
    ? new SSEClientTransport(options.url, common)
    : new StreamableHTTPClientTransport(options.url, common);
}

/**
 * The SDK's stdio transport under another name. The SDK probes the era of exactly its own
 * stdio class on a sibling process (a second copy of the server, started for the probe);
 * a subclass is probed in place, on the one process the pool starts. Behaviour is
 * otherwise the SDK's.
 *
 * @internal
 */
export class InPlaceStdioTransport extends StdioClientTransport {}

/**
 * Makes one unstarted stdio transport (stderr piped, so the pool keeps its tail).
 *
 * @param params - the command, its arguments, environment and folder
 * @returns the transport
 * @throws nothing
 * @internal
 */
export function createStdioTransport(params: StdioServerParameters): InPlaceStdioTransport {
  return new InPlaceStdioTransport({ ...params, stderr: 'pipe' });
}
