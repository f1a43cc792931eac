import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { ToolSearchError } from '@tool-search/core';
import { describeError } from '@tool-search/core/internal';
import type { GatewayProfile } from '../config/schemas.js';
import type { GatewayStore, StoredSession } from '../store/types.js';
import { answerHealth, type GatewayReadiness } from './http-health.js';
import {
  armBodyDeadline,
  formatDuration,
  readJson,
  resolveHttpLimits,
  serverOptionsOf,
} from './http-limits.js';
import {
  DEFAULT_IDLE_TIMEOUT_MS,
  type GatewayHttpListener,
  type GatewayHttpOptions,
} from './http-options.js';
import { routeResponses, splitAnswers } from './http-replicas.js';
import { reply, storeFailure } from './http-reply.js';
import { createSessionFactory, type HttpSession } from './http-session-factory.js';
import { createSessionTable, trackActivity } from './http-session-table.js';
import { isLoopbackHost, validateGatewayHttpOptions } from './http-validation.js';
import type { GatewaySession } from './types.js';

export type {
  GatewayHttpCloseOptions,
  GatewayHttpListener,
  GatewayHttpOptions,
} from './http-options.js';
export { DEFAULT_IDLE_TIMEOUT_MS } from './http-options.js';

/** What the HTTP layer needs of the gateway. */
export interface GatewayHttpHost {
  createSession(profile: string | undefined, id: string): GatewaySession;
  profiles: Readonly<Record<string, GatewayProfile>>;
  defaultProfile?: string;
  /**
   * Where sessions are kept. A shared one (Redis) lets any replica serve any session;
   * absent or in memory, sessions live in this process only.
   */
  store?: GatewayStore;
  /** How this replica is, for `GET /readyz`. @defaultValue always ready */
  readiness?: () => Promise<GatewayReadiness>;
  /** Told of store trouble that did not fail a request (a stream event not stored). */
  onStoreError?: (message: string) => void;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

function formatHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** `Access-Control-Allow-Headers`: what an MCP client sends on the endpoint. */
const CORS_ALLOW_HEADERS =
  'authorization, content-type, mcp-session-id, mcp-protocol-version, last-event-id';

/**
 * Serves gateway sessions over Streamable HTTP (stateful: one session per
 * `Mcp-Session-Id`), with the checks the MCP transport spec asks for, CORS for the
 * allowed browser origins, and idle sessions closed after `idleTimeoutMs`.
 *
 * @param host - the gateway: creates the sessions
 * @param options - see {@link GatewayHttpOptions}
 * @returns the running listener
 * @throws {@link ToolSearchError} `invalid_config` for a non-loopback host without
 * tokens, a token shorter than 16 characters, an allowed origin that is not a
 * serialized origin (e.g. `*` or one with a path), an `idleTimeoutMs` that is not
 * a non-negative number, or a session, connection or timeout limit that is not a
 * whole number of 1 or more; the listen error when the port is taken
 */
export async function listenGatewayHttp(
  host: GatewayHttpHost,
  options: GatewayHttpOptions,
): Promise<GatewayHttpListener> {
  const bindHost = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const loopback = isLoopbackHost(bindHost);
  // Every option is checked before anything listens.
  validateGatewayHttpOptions(options, { profiles: host.profiles });

  // token digest (hex) → the profile it selects
  const tokens = new Map<string, { digest: Buffer; profile: string | undefined }>();
  if (options.token !== undefined) {
    tokens.set('default', { digest: digest(options.token), profile: host.defaultProfile });
  }
  for (const [name, profile] of Object.entries(host.profiles)) {
    if (profile.token !== undefined)
      tokens.set(`profile:${name}`, { digest: digest(profile.token), profile: name });
  }
  const limits = resolveHttpLimits(options, tokens.size);
  // Only a shared store changes how sessions are served: one in memory is this process.
  const store = host.store?.shared === true ? host.store : undefined;
  // Who asks a session's client a question: its answer comes back to this id alone.
  const replica = randomUUID();
  const sessions = createSessionTable<HttpSession>({
    maxSessions: limits.maxSessions,
    maxPerPrincipal: limits.maxSessionsPerPrincipal,
  });
  const describePrincipal = (principal: string): string => {
    if (principal === '') return 'clients without a token';
    if (principal === 'default') return 'the gateway token';
    return `the token of profile '${principal.slice('profile:'.length)}'`;
  };
  let port = 0;
  let accepting = true;
  // Requests whose response has not closed, GET streams aside: what a graceful close waits for.
  let pending = 0;
  const pendingSettled = new Set<() => void>();
  const ownOrigins = () =>
    new Set(
      ['127.0.0.1', 'localhost', '[::1]', formatHost(bindHost)].map(
        (name) => `http://${name}:${port}`,
      ),
    );
  const allowedOrigins = new Set(options.allowedOrigins ?? []);

  // How often idle sessions are looked for; a session closes up to this much late.
  const sweepEveryMs = Math.max(1, Math.min(idleTimeoutMs / 2, 60_000));
  const idleExpiry = (): number | undefined =>
    idleTimeoutMs === 0 ? undefined : sessions.idleExpiry(idleTimeoutMs, sweepEveryMs);
  const describeIdleExpiry = (soonest: number | undefined): string => {
    if (idleTimeoutMs === 0) return 'Idle sessions are never closed (idleTimeoutMs is 0).';
    const rule = `Sessions close after ${formatDuration(idleTimeoutMs)} without requests`;
    return soonest === undefined
      ? `${rule}; none is idle now (each has a request or stream open).`
      : `${rule}; the first idle one closes within ${formatDuration(soonest)}.`;
  };

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
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins.has(origin) && !ownOrigins().has(origin)) {
      // No CORS headers: the browser keeps the answer from the foreign page.
      return reply(res, 403, `Forbidden: origin ${origin} is not allowed`);
    }
    if (origin !== undefined) {
      // Every answer to an allowed origin, errors included, is readable by its page.
      res.setHeader('access-control-allow-origin', origin);
      res.setHeader('vary', 'Origin');
      res.setHeader('access-control-expose-headers', 'mcp-session-id, mcp-protocol-version');
    }
    const url = new URL(req.url ?? '/', 'http://gateway');
    // `/healthz` says only that the process serves: a liveness probe gets it by any name.
    if (req.method === 'GET' && url.pathname === '/healthz') {
      return answerHealth(res, url.pathname, async () => ({ ready: true, store: 'ok' }));
    }
    if (url.pathname !== path && url.pathname !== '/readyz') {
      return reply(res, 404, `Not found: the MCP endpoint is ${path}`);
    }

    // DNS rebinding: a page on a name that resolves here may not read the endpoint, nor
    // how this replica, its store and its upstreams are.
    const hostHeader = (req.headers.host ?? '').toLowerCase();
    if (options.allowedHosts !== undefined || loopback) {
      const hostName = hostHeader.replace(/:\d+$/, '');
      const allowed =
        options.allowedHosts?.includes(hostHeader) === true ||
        (loopback && isLoopbackHost(hostName) && hostHeader.endsWith(`:${port}`));
      if (!allowed)
        return reply(res, 403, `Forbidden: host ${hostHeader || '(none)'} is not allowed`);
    }
    if (url.pathname === '/readyz') {
      if (req.method !== 'GET') return reply(res, 405, 'Method not allowed: GET /readyz');
      return answerHealth(
        res,
        url.pathname,
        host.readiness ?? (async () => ({ ready: true, store: 'ok' })),
      );
    }

    if (req.method === 'OPTIONS') {
      // A CORS preflight carries no credentials: answer it before authentication.
      res.writeHead(204, {
        allow: 'GET, POST, DELETE, OPTIONS',
        ...(origin === undefined
          ? {}
          : {
              'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
              'access-control-allow-headers': CORS_ALLOW_HEADERS,
              'access-control-max-age': '600',
            }),
      });
      res.end();
      return;
    }

    const auth = authenticate(req);
    if (auth === undefined) {
      return reply(res, 401, 'Unauthorized: a valid bearer token is required', {
        'www-authenticate': 'Bearer realm="tool-search-gateway"',
      });
    }

    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      let entry = sessions.get(sessionId);
      if (entry === undefined && store !== undefined) {
        // Opened on another replica (or by this one before a restart): rebuild it here.
        const restored = await restore(sessionId, auth, res);
        if (restored === undefined) return;
        entry = restored;
      }
      if (entry === undefined)
        return reply(res, 404, 'Session not found: initialize a new session');
      // A session belongs to the token that opened it: no switching scopes mid-session.
      if (entry.principal !== auth.principal) {
        return reply(res, 403, 'Forbidden: this session belongs to another client');
      }
      if (store !== undefined) {
        let alive: boolean;
        try {
          alive = await store.touchSession(sessionId, entry.principal, idleTimeoutMs);
        } catch (error) {
          return reply(res, 503, storeFailure(error), { 'retry-after': '2' });
        }
        if (!alive) {
          // Closed (DELETE) on another replica, or expired: this copy goes too.
          if (sessions.delete(sessionId)) entry.close();
          return reply(
            res,
            404,
            'Session not found: it was closed or expired; initialize a new session',
          );
        }
        if (req.method === 'POST') {
          let body: unknown;
          try {
            body = await readJson(req, maxBodyBytes);
          } catch (error) {
            return reply(res, 400, `Bad request: ${describeError(error)}`);
          }
          const { answers, rest } = splitAnswers(body);
          if (answers.length > 0) {
            // An answer to an elicitation belongs to the one question it answers, which
            // the replica that asked (maybe another) is waiting on.
            let refused: string[];
            try {
              refused = await routeResponses(store, sessionId, answers);
            } catch (error) {
              return reply(res, 503, storeFailure(error), { 'retry-after': '2' });
            }
            if (refused.length > 0) return reply(res, 400, `Bad request: ${refused.join(' ')}`);
            if (rest === undefined) {
              res.writeHead(202).end();
              return;
            }
          }
          trackActivity(entry.activity, res);
          await entry.transport.handleRequest(req, res, rest);
          return;
        }
      }
      trackActivity(entry.activity, res);
      await entry.transport.handleRequest(req, res);
      return;
    }
    if (!accepting) {
      return reply(res, 503, 'The gateway is shutting down: no new sessions.', {
        connection: 'close',
      });
    }

    if (req.method !== 'POST')
      return reply(res, 400, 'Bad request: no session; send initialize first');
    let body: unknown;
    try {
      body = await readJson(req, maxBodyBytes);
    } catch (error) {
      return reply(res, 400, `Bad request: ${describeError(error)}`);
    }
    const messages = Array.isArray(body) ? body : [body];
    const initialize = messages.find(isInitializeRequest);
    if (initialize === undefined)
      return reply(res, 400, 'Bad request: no session; send initialize first');
    if (!accepting) {
      return reply(res, 503, 'The gateway is shutting down: no new sessions.', {
        connection: 'close',
      });
    }
    const admission = sessions.admit(auth.principal, describePrincipal);
    if (!admission.ok) {
      const retryAfter = idleExpiry();
      return reply(
        res,
        503,
        `${admission.message} ${describeIdleExpiry(retryAfter)}`,
        retryAfter === undefined ? {} : { 'retry-after': String(Math.ceil(retryAfter / 1000)) },
      );
    }

    const id = randomUUID();
    const record: StoredSession = {
      id,
      principal: auth.principal,
      ...(auth.profile === undefined ? {} : { profile: auth.profile }),
      initialize: initialize.params as unknown as Record<string, unknown>,
      createdAt: Date.now(),
    };
    if (store !== undefined) {
      // The caps count the sessions of every replica; the store decides atomically.
      try {
        const shared = await store.admitSession(id, auth.principal, {
          maxSessions: limits.maxSessions,
          maxPerPrincipal: limits.maxSessionsPerPrincipal,
          idleMs: idleTimeoutMs,
        });
        if (!shared.ok) {
          const rule =
            shared.scope === 'principal'
              ? `Too many sessions for ${describePrincipal(auth.principal)}: it holds ${shared.held} across the gateway's replicas (the most one token may hold is ${limits.maxSessionsPerPrincipal}).`
              : `Too many sessions (${limits.maxSessions}) across the gateway's replicas.`;
          return reply(
            res,
            503,
            `${rule} Close one (DELETE it) and try again; ${describeIdleExpiry(undefined)}`,
          );
        }
        await store.putSession(record, idleTimeoutMs);
      } catch (error) {
        await store.deleteSession(id, auth.principal).catch(() => {});
        return reply(res, 503, storeFailure(error), { 'retry-after': '2' });
      }
    }
    let initialized = false;
    const entry = open(record, auth.profile, () => {
      initialized = true;
    });
    trackActivity(entry.activity, res);
    await entry.session.server.connect(entry.transport);
    await entry.transport.handleRequest(req, res, body);
    if (!initialized) {
      sessions.delete(id);
      await entry.session.close();
      await store?.deleteSession(id, auth.principal).catch(() => {});
    }
  };

  const { open, restore } = createSessionFactory({
    createSession: host.createSession,
    store,
    replica,
    sessions,
    describePrincipal,
    ...(host.onStoreError === undefined ? {} : { onStoreError: host.onStoreError }),
  });

  const server = createServer(serverOptionsOf(limits), (req, res) => {
    armBodyDeadline(req, res, limits.bodyTimeoutMs);
    if (req.method !== 'GET') {
      pending += 1;
      res.once('close', () => {
        pending -= 1;
        if (pending === 0) for (const settled of pendingSettled) settled();
      });
    }
    handle(req, res).catch((error: unknown) =>
      reply(res, 500, `Internal error: ${describeError(error)}`),
    );
  });
  server.maxConnections = limits.maxConnections;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, bindHost, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  // Answers to a session's elicitations reach whichever replica the balancer picks;
  // the store hands each to the replica that asked, on its own channel.
  const subscribed =
    store === undefined
      ? undefined
      : store
          .subscribe(replica, ({ sessionId, message }) => {
            sessions.get(sessionId)?.deliver?.(message);
          })
          .catch((error: unknown) => {
            host.onStoreError?.(
              `answers to elicitations cannot be routed between replicas: ${describeError(error)}`,
            );
            return undefined;
          });
  const sweeper =
    idleTimeoutMs > 0 ? setInterval(() => sessions.sweep(idleTimeoutMs), sweepEveryMs) : undefined;
  sweeper?.unref();
  const allInterfaces = bindHost === '0.0.0.0' || bindHost === '::' || bindHost === '[::]';
  const shownHost = allInterfaces
    ? bindHost === '0.0.0.0'
      ? '127.0.0.1'
      : '[::1]'
    : formatHost(bindHost);
  const stopAccepting = () => {
    if (!accepting) return;
    accepting = false;
    clearInterval(sweeper);
    // The port closes (new connections are refused) and idle keep-alive sockets close.
    server.close();
    server.closeIdleConnections();
  };

  return {
    url: `http://${shownHost}:${port}${path}`,
    host: bindHost,
    port,
    allInterfaces,
    stopAccepting,
    async close(closeOptions = {}) {
      stopAccepting();
      const graceMs = closeOptions.graceMs ?? 0;
      if (pending > 0 && graceMs > 0) {
        let settle = () => {};
        const settled = new Promise<void>((resolve) => {
          settle = resolve;
        });
        pendingSettled.add(settle);
        const timer = setTimeout(settle, graceMs);
        await settled;
        clearTimeout(timer);
        pendingSettled.delete(settle);
      }
      const opened = [...sessions.entries()];
      for (const [id] of opened) sessions.delete(id);
      await Promise.allSettled(opened.map(([, entry]) => entry.transport.close()));
      await (await subscribed)?.();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
