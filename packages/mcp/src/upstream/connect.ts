import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Implementation } from '@modelcontextprotocol/sdk/types.js';
import { ToolSearchError } from '@tool-search/core';
import { describeError } from '@tool-search/core/internal';
import type { UpstreamAuthConfig } from '../config/upstream-auth-schema.js';
import { createAuthAwareFetch } from './auth/auth-fetch.js';
import { batchStdioWrites } from './stdio-batch.js';

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
  client: Client;
  kind: UpstreamTransportKind;
  /** The last lines the process wrote to stderr (stdio only). */
  stderrTail(): string;
}

const STDERR_TAIL_CHARS = 2_000;

function isStdio(
  server: UpstreamServerInput,
): server is Extract<UpstreamServerInput, { command: string }> {
  return 'command' in server && typeof server.command === 'string';
}

/**
 * Connects one MCP client to an upstream server. For HTTP the Streamable HTTP
 * transport is tried first and the old SSE transport is the fallback (unless the
 * entry says which). `prepare` runs on each new client before it connects, so that
 * notification handlers miss nothing.
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
  options: {
    clientInfo: Implementation;
    timeoutMs: number;
    signal: AbortSignal;
    prepare: (client: Client) => void;
    onStderr?: ((text: string) => void) | undefined;
    /** The OAuth client of an HTTP server that needs sign-in (absent: fixed headers only). */
    authProvider?: (() => Promise<OAuthClientProvider | undefined>) | undefined;
  },
): Promise<UpstreamConnection> {
  const attempt = async (
    transport: Transport,
    kind: UpstreamTransportKind,
    stderrTail: () => string,
  ): Promise<UpstreamConnection> => {
    const client = new Client(options.clientInfo, { capabilities: {} });
    options.prepare(client);
    const onAbort = () => {
      void client.close().catch(() => {});
    };
    options.signal.addEventListener('abort', onAbort, { once: true });
    try {
      await client.connect(transport, { timeout: options.timeoutMs, signal: options.signal });
      return { client, kind, stderrTail };
    } catch (error) {
      await client.close().catch(() => {});
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
    return attempt(transport, 'in-process', () => '');
  }

  if (isStdio(server)) {
    let tail = '';
    const transport = new StdioClientTransport({
      command: server.command,
      args: [...(server.args ?? [])],
      env: { ...(server.env ?? {}) },
      ...(server.cwd === undefined ? {} : { cwd: server.cwd }),
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer | string) => {
      const text = chunk.toString();
      tail = (tail + text).slice(-STDERR_TAIL_CHARS);
      options.onStderr?.(text);
    });
    try {
      const connected = await attempt(transport, 'stdio', () => tail.trim());
      batchStdioWrites(transport);
      return connected;
    } catch (error) {
      let text = describeError(error);
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

  const url = new URL(server.url);
  const authProvider = await options.authProvider?.();
  const requestInit: RequestInit = { headers: { ...(server.headers ?? {}) } };
  const httpOptions = {
    requestInit,
    ...(authProvider === undefined
      ? {}
      : { authProvider, fetch: createAuthAwareFetch(server.url) }),
  };
  const none = () => '';
  if (server.type === 'sse') {
    return attempt(new SSEClientTransport(url, httpOptions), 'sse', none);
  }
  try {
    return await attempt(
      new StreamableHTTPClientTransport(url, httpOptions),
      'streamable-http',
      none,
    );
  } catch (error) {
    // A server that needs sign-in is no old SSE server: say so, not that both failed.
    const signIn = ToolSearchError.isInstance(error) && error.code.startsWith('upstream_sign_in');
    if (server.type === 'streamable-http' || options.signal.aborted || signIn) throw error;
    try {
      return await attempt(new SSEClientTransport(url, httpOptions), 'sse', none);
    } catch (fallbackError) {
      throw new ToolSearchError(
        'upstream_unavailable',
        `Streamable HTTP failed (${describeError(error)}), and so did the SSE fallback (${describeError(fallbackError)})`,
        { cause: error },
      );
    }
  }
}
