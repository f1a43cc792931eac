import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { describeError, ToolSearchError } from '@tool-search/core';
import type { GatewayProfile } from './config.js';
import type { GatewaySession } from './gateway-server.js';

/** Options of `GatewayServer.listenHttp`. */
export interface GatewayHttpOptions {
  /** The address to bind. @defaultValue '127.0.0.1' */
  host?: string;
  /** The port; 0 picks a free one. @defaultValue 0 */
  port?: number;
  /** The endpoint's path. @defaultValue '/mcp' */
  path?: string;
  /**
   * A bearer token for sessions without a profile (or with the server's default
   * profile). Required when `host` is not a loopback address, unless the config's
   * profiles carry tokens. When any token is configured, every request must carry one.
   */
  token?: string;
  /**
   * Browser origins allowed besides the gateway's own (e.g. `http://localhost:6274`).
   * A request with any other `Origin` header is refused with 403.
   */
  allowedOrigins?: readonly string[];
  /**
   * `Host` header values allowed (e.g. `gateway.internal:8080`). When bound to a
   * loopback address the loopback names are always allowed and any other Host is
   * refused (DNS-rebinding protection); elsewhere, absent means any Host.
   */
  allowedHosts?: readonly string[];
  /** The largest request body in bytes. @defaultValue 4 MiB */
  maxBodyBytes?: number;
  /** The most sessions open at once; a new one beyond it is refused with 503. @defaultValue 100 */
  maxSessions?: number;
}

/** A running Streamable HTTP endpoint. */
export interface GatewayHttpListener {
  /** The endpoint, e.g. `http://127.0.0.1:43123/mcp`. */
  url: string;
  /** The bound host. */
  host: string;
  /** The bound port. */
  port: number;
  /** Stops accepting connections and closes every session it opened. */
  close(): Promise<void>;
}

/** What the HTTP layer needs of the gateway. */
export interface GatewayHttpHost {
  createSession(profile: string | undefined, id: string): GatewaySession;
  profiles: Readonly<Record<string, GatewayProfile>>;
  defaultProfile?: string;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

function isLoopback(host: string): boolean {
  return LOOPBACK_HOSTS.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

function formatHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

function reply(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

async function readJson(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new Error(`the request body is larger than ${maxBytes} bytes`);
    chunks.push(chunk as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

interface HttpSession {
  transport: StreamableHTTPServerTransport;
  session: GatewaySession;
  /** Which token opened it ('' when none is required). */
  principal: string;
}

/**
 * Serves gateway sessions over Streamable HTTP (stateful: one session per
 * `Mcp-Session-Id`), with the checks the MCP transport spec asks for.
 *
 * @throws {@link ToolSearchError} `invalid_config` for a non-loopback host without tokens
 */
export async function listenGatewayHttp(
  host: GatewayHttpHost,
  options: GatewayHttpOptions,
): Promise<GatewayHttpListener> {
  const bindHost = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const maxSessions = options.maxSessions ?? 100;
  const loopback = isLoopback(bindHost);

  // token digest (hex) → the profile it selects
  const tokens = new Map<string, { digest: Buffer; profile: string | undefined }>();
  if (options.token !== undefined) {
    if (options.token.length < 16) {
      throw new ToolSearchError(
        'invalid_config',
        'The HTTP token must be at least 16 characters long.',
      );
    }
    tokens.set('default', { digest: digest(options.token), profile: host.defaultProfile });
  }
  for (const [name, profile] of Object.entries(host.profiles)) {
    if (profile.token !== undefined)
      tokens.set(`profile:${name}`, { digest: digest(profile.token), profile: name });
  }
  if (!loopback && tokens.size === 0) {
    throw new ToolSearchError(
      'invalid_config',
      `Refusing to serve HTTP on ${bindHost} without a bearer token: anyone who can reach it could call your tools. Pass a token (at least 16 characters), give the profiles tokens, or bind to 127.0.0.1.`,
    );
  }

  const sessions = new Map<string, HttpSession>();
  let port = 0;
  const ownOrigins = () =>
    new Set(
      ['127.0.0.1', 'localhost', '[::1]', formatHost(bindHost)].map(
        (name) => `http://${name}:${port}`,
      ),
    );
  const allowedOrigins = new Set(options.allowedOrigins ?? []);

  const authenticate = (
    req: IncomingMessage,
  ): { principal: string; profile: string | undefined } | undefined => {
    if (tokens.size === 0) return { principal: '', profile: host.defaultProfile };
    const header = req.headers.authorization ?? '';
    const match = /^Bearer\s+(.+)$/i.exec(header);
    if (!match) return undefined;
    const presented = digest(match[1]!.trim());
    for (const [principal, entry] of tokens) {
      if (timingSafeEqual(presented, entry.digest)) return { principal, profile: entry.profile };
    }
    return undefined;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://gateway');
    if (url.pathname !== path) return reply(res, 404, `Not found: the MCP endpoint is ${path}`);

    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins.has(origin) && !ownOrigins().has(origin)) {
      return reply(res, 403, `Forbidden: origin ${origin} is not allowed`);
    }
    const hostHeader = (req.headers.host ?? '').toLowerCase();
    if (options.allowedHosts !== undefined || loopback) {
      const hostName = hostHeader.replace(/:\d+$/, '');
      const allowed =
        options.allowedHosts?.includes(hostHeader) === true ||
        (loopback && isLoopback(hostName) && hostHeader.endsWith(`:${port}`));
      if (!allowed)
        return reply(res, 403, `Forbidden: host ${hostHeader || '(none)'} is not allowed`);
    }

    const auth = authenticate(req);
    if (auth === undefined) {
      return reply(res, 401, 'Unauthorized: a valid bearer token is required', {
        'www-authenticate': 'Bearer realm="tool-search-gateway"',
      });
    }

    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const entry = sessions.get(sessionId);
      if (entry === undefined)
        return reply(res, 404, 'Session not found: initialize a new session');
      // A session belongs to the token that opened it: no switching scopes mid-session.
      if (entry.principal !== auth.principal) {
        return reply(res, 403, 'Forbidden: this session belongs to another client');
      }
      await entry.transport.handleRequest(req, res);
      return;
    }

    if (req.method !== 'POST')
      return reply(res, 400, 'Bad request: no session; send initialize first');
    let body: unknown;
    try {
      body = await readJson(req, maxBodyBytes);
    } catch (error) {
      return reply(res, 400, `Bad request: ${describeError(error)}`);
    }
    const initializing = Array.isArray(body)
      ? body.some(isInitializeRequest)
      : isInitializeRequest(body);
    if (!initializing) return reply(res, 400, 'Bad request: no session; send initialize first');
    if (sessions.size >= maxSessions) {
      return reply(res, 503, `Too many sessions (${maxSessions}): close one and try again`);
    }

    const id = randomUUID();
    const session = host.createSession(auth.profile, id);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: () => {
        sessions.set(id, { transport, session, principal: auth.principal });
      },
      onsessionclosed: () => {
        sessions.delete(id);
      },
    });
    transport.onclose = () => {
      sessions.delete(id);
      void session.close();
    };
    await session.server.connect(transport);
    await transport.handleRequest(req, res, body);
    if (!sessions.has(id)) await session.close();
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) =>
      reply(res, 500, `Internal error: ${describeError(error)}`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, bindHost, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  const shownHost = formatHost(
    bindHost === '0.0.0.0' || bindHost === '::' ? '127.0.0.1' : bindHost,
  );

  return {
    url: `http://${shownHost}:${port}${path}`,
    host: bindHost,
    port,
    async close() {
      await Promise.allSettled([...sessions.values()].map((entry) => entry.transport.close()));
      sessions.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
