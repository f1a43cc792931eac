import type {
  ClientCapabilities,
  Implementation,
  OAuthClientProvider,
  PriorDiscovery,
  Transport,
} from '@modelcontextprotocol/client';
import { ToolSearchError } from '@tool-search/core';
import { describeError } from '@tool-search/core/internal';
import type { UpstreamAuthConfig } from '../config/upstream-auth-schema.js';
import { tracedFetch } from '../telemetry/upstream-observe.js';
import { createAuthAwareFetch } from './auth/auth-fetch.js';
import { UpstreamOAuthProvider } from './auth/provider.js';
import { createUpstreamClient, type UpstreamClient, type UpstreamEra } from './client.js';
import { describeConnectError, type EraCache, isEraFailure, verdictOf } from './era.js';
import type { UpstreamRelayPolicyInput } from './features/relay.js';
import { batchStdioWrites } from './stdio-batch.js';
import {
  createHttpTransport,
  createStdioTransport,
  type HttpTransportKind,
  type HttpTransportOptions,
} from './transports.js';

/** How a connected upstream is reached (`in-process`: a transport an entry's function made). */
export type UpstreamTransportKind = 'stdio' | 'streamable-http' | 'sse' | 'in-process';

/** The per-server limits of calls (fields of an `mcpServers` entry). */
export interface UpstreamCallLimitsInput {
  /** No answer and no progress for this long ends a call. @defaultValue the pool's `callTimeoutMs` */
  callTimeoutMs?: number;
  /** The longest call, however much progress it reports. @defaultValue the pool's `maxCallTimeMs` */
  maxCallTimeMs?: number;
  /** The most calls that run at once on this server; more wait in line (FIFO). @defaultValue no limit */
  maxConcurrency?: number;
  /**
   * With `maxConcurrency`: how long the server has to answer a call it was told to
   * cancel before its connection is restarted (the call keeps its slot until then).
   * @defaultValue the pool's `cancelGraceMs`
   */
  cancelGraceMs?: number;
}

/** An upstream server entry as the pool takes it (a parsed config entry fits). */
export type UpstreamServerInput = UpstreamCallLimitsInput &
  UpstreamRelayPolicyInput &
  (
    | {
        type?: 'stdio';
        command: string;
        args?: readonly string[];
        env?: Readonly<Record<string, string>>;
        cwd?: string;
        disabled?: boolean;
        /** Honour the server's own pins. @defaultValue false */
        trusted?: boolean;
      }
    | {
        type?: 'http' | 'streamable-http' | 'sse';
        url: string;
        headers?: Readonly<Record<string, string>>;
        /** How the gateway signs in (the pool's `authProvider` option makes the client). */
        auth?: UpstreamAuthConfig | undefined;
        disabled?: boolean;
        /** Honour the server's own pins. @defaultValue false */
        trusted?: boolean;
      }
    | {
        type?: 'in-process';
        /**
         * Returns a new, unstarted MCP client transport to a server in this process, called
         * at every connect and restart (e.g. one end of `InMemoryTransport.createLinkedPair()`
         * whose other end a new server is connected to). It may throw: the connect fails.
         */
        transport: () => Transport;
        disabled?: boolean;
        /** Honour the server's own pins. @defaultValue false */
        trusted?: boolean;
      }
  );

/** A live connection to one upstream. */
export interface UpstreamConnection {
  client: UpstreamClient;
  kind: UpstreamTransportKind;
  /** The era the connection landed on. */
  era: UpstreamEra;
  /** Whether the era came from the cache (no probe) rather than a probe. */
  eraCached: boolean;
  /** The last lines the process wrote to stderr (stdio only). */
  stderrTail(): string;
}

/** Options of {@link connectUpstream}. */
export interface ConnectUpstreamOptions {
  clientInfo: Implementation;
  timeoutMs: number;
  signal: AbortSignal;
  /** Runs on each new client before it connects (handlers, capabilities). */
  prepare: (client: UpstreamClient) => void;
  onStderr?: ((text: string) => void) | undefined;
  /** What the client declares. @defaultValue `{}` */
  capabilities?: ClientCapabilities | undefined;
  /** The era verdicts of the pool, and this entry's key in them. */
  eras?: { cache: EraCache; key: string } | undefined;
  /** Extra options of every HTTP transport of this entry (sign-in, `fetch`). */
  http?: Omit<HttpTransportOptions, 'kind' | 'url' | 'headers'> | undefined;
  /**
   * The OAuth client of an HTTP server that needs sign-in, made at each connect (absent,
   * or resolving to none: the entry's fixed headers only).
   */
  authProvider?: (() => Promise<OAuthClientProvider | undefined>) | undefined;
}

const STDERR_TAIL_CHARS = 2_000;

function isStdio(
  server: UpstreamServerInput,
): server is Extract<UpstreamServerInput, { command: string }> {
  return 'command' in server && typeof server.command === 'string';
}

/**
 * Connects one MCP client (SDK v2, negotiating mode) to an upstream server. The era is
 * the cached verdict of the entry when there is one (no probe), else the SDK probes with
 * `server/discover` and falls back to the 2025 `initialize`; the outcome is cached. A stdio
 * server of unknown era gets the 2025 handshake first (no probe); one that refuses it for
 * its protocol version is started once more, after the first process is gone, and probed
 * in place (never on a sibling copy). For HTTP the
 * Streamable HTTP transport is tried first and the old SSE transport (2025 only) is the
 * fallback (unless the entry says which). `prepare` runs on each new client before it
 * connects, so that notification handlers miss nothing.
 *
 * An in-process entry's `transport()` is called once per connect, so that a restart gets
 * a new transport (an SDK transport cannot be started twice).
 *
 * @throws {@link ToolSearchError} `upstream_unavailable` when a stdio server cannot be
 * started or connected (with the end of its stderr), when both HTTP transports fail, or
 * when an in-process entry's `transport()` throws; the transport's own error when a
 * single transport fails or `signal` aborts
 */
export async function connectUpstream(
  server: UpstreamServerInput,
  options: ConnectUpstreamOptions,
): Promise<UpstreamConnection> {
  const cached = options.eras?.cache.get(options.eras.key);
  const attempt = async (
    transport: Transport,
    kind: UpstreamTransportKind,
    stderrTail: () => string,
    prior: PriorDiscovery | undefined,
  ): Promise<UpstreamConnection> => {
    const client = createUpstreamClient({
      clientInfo: options.clientInfo,
      capabilities: options.capabilities,
      // On stdio a silent probe means a 2025 server: half the connect time is ample.
      probeTimeoutMs: kind === 'stdio' ? Math.ceil(options.timeoutMs / 2) : options.timeoutMs,
    });
    options.prepare(client);
    const onAbort = () => {
      void client.close().catch(() => {});
      // The era probe runs before the client owns the transport: close it too.
      void transport.close().catch(() => {});
    };
    options.signal.addEventListener('abort', onAbort, { once: true });
    try {
      await client.connect(transport, {
        timeout: options.timeoutMs,
        signal: options.signal,
        ...(prior === undefined ? {} : { prior }),
      });
      const era = client.getProtocolEra() ?? 'legacy';
      if (prior === undefined) options.eras?.cache.set(options.eras.key, verdictOf(client));
      return { client, kind, era, eraCached: prior !== undefined, stderrTail };
    } catch (error) {
      await client.close().catch(() => {});
      // The process is gone before anything else is started for this server.
      await transport.close().catch(() => {});
      // A verdict that no longer holds is dropped: the next connect probes.
      if (prior !== undefined) options.eras?.cache.delete(options.eras.key);
      throw error;
    } finally {
      options.signal.removeEventListener('abort', onAbort);
    }
  };

  if ('transport' in server) {
    let transport: Transport;
    try {
      transport = server.transport();
    } catch (error) {
      throw new ToolSearchError(
        'upstream_unavailable',
        `the in-process server's transport function threw (${describeError(error)})`,
        { cause: error },
      );
    }
    return attempt(transport, 'in-process', () => '', cached);
  }

  if (isStdio(server)) return connectStdio(server, options, cached, attempt);

  const url = new URL(server.url);
  const authProvider = await options.authProvider?.();
  // With sign-in, discovery, registration and token requests get a deadline.
  const base =
    authProvider === undefined
      ? options.http?.fetch
      : createAuthAwareFetch(server.url, { base: options.http?.fetch });
  const http = (kind: HttpTransportKind) =>
    createHttpTransport({
      ...options.http,
      ...(authProvider === undefined ? {} : { authProvider }),
      // Our sign-in provider checks the issuer itself (by origin in the 2025-03-26 fallback).
      providerChecksIssuer: authProvider instanceof UpstreamOAuthProvider,
      // The active trace context rides on each request's headers, when traced.
      fetch: tracedFetch(base),
      kind,
      url,
      headers: server.headers,
    });
  const none = () => '';
  // The old HTTP+SSE transport predates the 2026 era: no probe.
  if (server.type === 'sse') return attempt(http('sse'), 'sse', none, { kind: 'legacy' });
  try {
    return await attempt(http('streamable-http'), 'streamable-http', none, cached);
  } catch (error) {
    // A server that needs sign-in is no old SSE server: say so, not that both failed.
    const signIn = ToolSearchError.isInstance(error) && error.code.startsWith('upstream_sign_in');
    if (server.type === 'streamable-http' || options.signal.aborted || signIn) throw error;
    try {
      return await attempt(http('sse'), 'sse', none, { kind: 'legacy' });
    } catch (fallbackError) {
      throw new ToolSearchError(
        'upstream_unavailable',
        `Streamable HTTP failed (${describeConnectError(error)}), and so did the SSE fallback (${describeError(fallbackError)})`,
        { cause: error },
      );
    }
  }
}

// The server refused the 2025 handshake for its protocol version (a 2026-only server).
function refusedLegacy(error: unknown): boolean {
  return isEraFailure(error) || /protocol version/i.test(describeError(error));
}

type Attempt = (
  transport: Transport,
  kind: UpstreamTransportKind,
  stderrTail: () => string,
  prior: PriorDiscovery | undefined,
) => Promise<UpstreamConnection>;

async function connectStdio(
  server: Extract<UpstreamServerInput, { command: string }>,
  options: ConnectUpstreamOptions,
  cached: PriorDiscovery | undefined,
  attempt: Attempt,
): Promise<UpstreamConnection> {
  let tail = '';
  const once = async (prior: PriorDiscovery | undefined) => {
    const transport = createStdioTransport({
      command: server.command,
      args: [...(server.args ?? [])],
      env: { ...(server.env ?? {}) },
      ...(server.cwd === undefined ? {} : { cwd: server.cwd }),
    });
    transport.stderr?.on('data', (chunk: Buffer | string) => {
      const text = chunk.toString();
      tail = (tail + text).slice(-STDERR_TAIL_CHARS);
      options.onStderr?.(text);
    });
    const connected = await attempt(transport, 'stdio', () => tail.trim(), prior);
    batchStdioWrites(transport);
    return connected;
  };
  try {
    if (cached !== undefined) return await once(cached);
    // Unknown era: the 2025 handshake first. Most stdio servers speak 2025, and some end
    // (or never answer) on any request before `initialize`, so a probe would cost them a
    // crash or a stall; a server that refuses the 2025 handshake is started once more
    // (after the first process is gone, never beside it) and probed with server/discover.
    try {
      const connected = await once({ kind: 'legacy' });
      options.eras?.cache.set(options.eras.key, { kind: 'legacy' });
      return connected;
    } catch (error) {
      if (!refusedLegacy(error) || options.signal.aborted) throw error;
      tail = '';
      return await once(undefined);
    }
  } catch (error) {
    let text = describeConnectError(error);
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      text = `command '${server.command}' was not found (${text})`;
    }
    // Give the process a moment to finish writing why it exited.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const lines = tail.trim().split('\n').slice(-5).join(' | ');
    throw new ToolSearchError(
      'upstream_unavailable',
      lines ? `${text}; its stderr: ${lines}` : text,
      {
        cause: error,
      },
    );
  }
}
