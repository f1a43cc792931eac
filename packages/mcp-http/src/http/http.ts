import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describeError } from '@tool-search/core/internal';
import type {
  GatewayReadiness,
  GatewayServer,
  GatewaySession,
  GatewayStore,
} from '@tool-search/mcp';
import type { GatewayProfile } from '@tool-search/mcp/config';
import { authStep, createHttpTokens, type HttpTokens } from './http-auth.js';
import { type HttpStep, runHttpSteps } from './http-chain.js';
import type { HttpFront } from './http-front.js';
import { endpointStep, livenessStep, readinessStep } from './http-health.js';
import { hostStep } from './http-host.js';
import {
  armBodyDeadline,
  formatDuration,
  type HttpLimits,
  resolveHttpLimits,
  serverOptionsOf,
} from './http-limits.js';
import { createModernLeg, type ModernHost, type ModernLeg } from './http-modern.js';
import { DEFAULT_MODERN_TTL_MS } from './http-modern-server.js';
import { mountSteps } from './http-mount-step.js';
import {
  DEFAULT_IDLE_TIMEOUT_MS,
  type GatewayHttpListener,
  type GatewayHttpOptions,
} from './http-options.js';
import { originStep } from './http-origin.js';
import { createPendingRequests, type PendingRequests } from './http-pending.js';
import { preflightStep } from './http-preflight.js';
import { reply } from './http-reply.js';
import { createSessionFactory, type HttpSession } from './http-session-factory.js';
import { newSessionStep } from './http-session-open.js';
import { sessionStep } from './http-session-route.js';
import { createSessionTable, type SessionTable } from './http-session-table.js';
import { isLoopbackHost, validateGatewayHttpOptions } from './http-validation.js';

export type {
  GatewayHttpCloseOptions,
  GatewayHttpListener,
  GatewayHttpOptions,
} from './http-options.js';
export { DEFAULT_IDLE_TIMEOUT_MS } from './http-options.js';

/** What the HTTP layer needs of the gateway. */
interface GatewayHttpHost {
  /** Opens a session; `principal` is who opened it (its token's principal, '' for none). */
  createSession(profile: string | undefined, id: string, principal?: string): GatewaySession;
  /** The profiles in force (read at each request: a reload may replace them). */
  readonly profiles: Readonly<Record<string, GatewayProfile>>;
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
  /** The stateless side, for 2026-07-28 clients; absent: the endpoint speaks 2025 only. */
  modern?: ModernHost;
}

function formatHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** One listener's state: its settings, its sessions, and whether it still accepts. */
interface ListenerState {
  readonly host: GatewayHttpHost;
  readonly options: GatewayHttpOptions;
  readonly bindHost: string;
  readonly path: string;
  readonly idleTimeoutMs: number;
  /** How often idle sessions are looked for; a session closes up to this much late. */
  readonly sweepEveryMs: number;
  readonly limits: HttpLimits;
  /** Only a shared store changes how sessions are served: one in memory is this process. */
  readonly store: GatewayStore | undefined;
  /** Who asks a session's client a question: its answer comes back to this id alone. */
  readonly replica: string;
  readonly sessions: SessionTable<HttpSession>;
  /** Requests whose response has not closed, GET streams aside: what a graceful close waits for. */
  readonly pending: PendingRequests;
  port: number;
  accepting: boolean;
}

function describePrincipal(principal: string): string {
  if (principal === '') return 'clients without a token';
  if (principal === 'default') return 'the gateway token';
  return `the token of profile '${principal.slice('profile:'.length)}'`;
}

function describeIdleExpiry(state: ListenerState, soonest: number | undefined): string {
  if (state.idleTimeoutMs === 0) return 'Idle sessions are never closed (idleTimeoutMs is 0).';
  const rule = `Sessions close after ${formatDuration(state.idleTimeoutMs)} without requests`;
  return soonest === undefined
    ? `${rule}; none is idle now (each has a request or stream open).`
    : `${rule}; the first idle one closes within ${formatDuration(soonest)}.`;
}

/** What the session steps of the front share. */
function createFront(state: ListenerState): HttpFront {
  const { host, store, sessions, idleTimeoutMs } = state;
  const maxBodyBytes = state.options.maxBodyBytes ?? 4 * 1024 * 1024;
  const factory = createSessionFactory({
    createSession: host.createSession,
    store,
    maxBodyBytes,
    replica: state.replica,
    sessions,
    describePrincipal,
    ...(host.onStoreError === undefined ? {} : { onStoreError: host.onStoreError }),
  });
  return {
    sessions,
    store,
    factory,
    limits: state.limits,
    maxBodyBytes,
    idleTimeoutMs,
    accepting: () => state.accepting,
    describePrincipal,
    idleExpiry: () =>
      idleTimeoutMs === 0 ? undefined : sessions.idleExpiry(idleTimeoutMs, state.sweepEveryMs),
    describeIdleExpiry: (soonest) => describeIdleExpiry(state, soonest),
  };
}

/** The front, in order: each step answers the request or passes it on. */
function frontSteps(
  state: ListenerState,
  tokens: HttpTokens,
): { steps: HttpStep[]; modern: ModernLeg | undefined } {
  const ownOrigins = () =>
    new Set(
      ['127.0.0.1', 'localhost', '[::1]', formatHost(state.bindHost)].map(
        (name) => `http://${name}:${state.port}`,
      ),
    );
  const front = createFront(state);
  const host = hostStep({
    allowedHosts: state.options.allowedHosts,
    loopback: isLoopbackHost(state.bindHost),
    port: () => state.port,
  });
  const eras = state.options.eras ?? 'both';
  const modern =
    state.host.modern === undefined || eras === 'legacy'
      ? undefined
      : createModernLeg(state.host.modern, front, {
          eras,
          ttlMs: state.options.modernTtlMs ?? DEFAULT_MODERN_TTL_MS,
          // Without tokens their secret is no secret: the gateway keeps a random key.
          stateKey: tokens.size > 0 ? tokens.secret : undefined,
        });
  const steps = [
    // A mount is a same-origin site of its own (no CORS): it checks Host and Origin itself.
    ...mountSteps(state.options.mounts ?? [], host, { tokens, port: () => state.port }),
    originStep({ allowedOrigins: new Set(state.options.allowedOrigins ?? []), ownOrigins }),
    livenessStep(),
    endpointStep(state.path),
    host,
    readinessStep(state.host.readiness),
    preflightStep(),
    authStep(tokens),
    // Requests of the 2026-07-28 revision (no session, the envelope in `_meta`).
    ...(modern === undefined ? [] : [modern.step]),
    sessionStep(front),
    newSessionStep(front),
  ];
  return { steps, modern };
}

/** Starts the HTTP server on the state's host and port. */
async function openServer(state: ListenerState, steps: HttpStep[]): Promise<Server> {
  const { limits } = state;
  const handle = async (req: IncomingMessage, res: ServerResponse) =>
    runHttpSteps(steps, { req, res, url: new URL(req.url ?? '/', 'http://gateway') });
  const server = createServer(serverOptionsOf(limits), (req, res) => {
    armBodyDeadline(req, res, limits.bodyTimeoutMs);
    if (req.method !== 'GET') state.pending.track(res);
    handle(req, res).catch((error: unknown) =>
      reply(res, 500, `Internal error: ${describeError(error)}`),
    );
  });
  server.maxConnections = limits.maxConnections;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(state.options.port ?? 0, state.bindHost, () => {
      server.off('error', reject);
      resolve();
    });
  });
  state.port = (server.address() as AddressInfo).port;
  return server;
}

// Answers to a session's elicitations reach whichever replica the balancer picks;
// the store hands each to the replica that asked, on its own channel.
function routeAnswers(state: ListenerState) {
  const { store, host, sessions } = state;
  return store === undefined
    ? undefined
    : store
        .subscribe(state.replica, ({ sessionId, message }) => {
          sessions.get(sessionId)?.deliver?.(message);
        })
        .catch((error: unknown) => {
          host.onStoreError?.(
            `answers to elicitations cannot be routed between replicas: ${describeError(error)}`,
          );
          return undefined;
        });
}

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
export async function listenHttpHost(
  host: GatewayHttpHost,
  options: GatewayHttpOptions,
): Promise<GatewayHttpListener> {
  const bindHost = options.host ?? '127.0.0.1';
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  // Every option is checked before anything listens.
  validateGatewayHttpOptions(options, { profiles: host.profiles });
  const tokens = createHttpTokens({
    token: options.token,
    // Read at each request: a reload that replaces the profiles replaces the tokens.
    profiles: () => host.profiles,
    defaultProfile: host.defaultProfile,
  });
  const limits = resolveHttpLimits(options, tokens.size);
  const state: ListenerState = {
    host,
    options,
    bindHost,
    path: options.path ?? '/mcp',
    idleTimeoutMs,
    sweepEveryMs: Math.max(1, Math.min(idleTimeoutMs / 2, 60_000)),
    limits,
    store: host.store?.shared === true ? host.store : undefined,
    replica: randomUUID(),
    sessions: createSessionTable<HttpSession>({
      maxSessions: limits.maxSessions,
      maxPerPrincipal: limits.maxSessionsPerPrincipal,
    }),
    pending: createPendingRequests(),
    port: 0,
    accepting: true,
  };
  const { steps, modern } = frontSteps(state, tokens);
  const server = await openServer(state, steps);
  return listenerOf(state, server, routeAnswers(state), modern);
}

/** The running listener: its address, the sweep of idle sessions, and its close. */
function listenerOf(
  state: ListenerState,
  server: Server,
  subscribed: ReturnType<typeof routeAnswers>,
  modern: ModernLeg | undefined,
): GatewayHttpListener {
  const { bindHost, sessions, idleTimeoutMs } = state;
  const sweeper =
    idleTimeoutMs > 0
      ? setInterval(() => sessions.sweep(idleTimeoutMs), state.sweepEveryMs)
      : undefined;
  sweeper?.unref();
  const allInterfaces = bindHost === '0.0.0.0' || bindHost === '::' || bindHost === '[::]';
  const shownHost = allInterfaces
    ? bindHost === '0.0.0.0'
      ? '127.0.0.1'
      : '[::1]'
    : formatHost(bindHost);
  const stopAccepting = () => {
    if (!state.accepting) return;
    state.accepting = false;
    clearInterval(sweeper);
    // The port closes (new connections are refused) and idle keep-alive sockets close.
    server.close();
    server.closeIdleConnections();
  };
  return {
    url: `http://${shownHost}:${state.port}${state.path}`,
    host: bindHost,
    port: state.port,
    allInterfaces,
    stopAccepting,
    async close(closeOptions = {}) {
      stopAccepting();
      await state.pending.settled(closeOptions.graceMs ?? 0);
      const opened = [...sessions.entries()];
      for (const [id] of opened) sessions.delete(id);
      await Promise.allSettled(opened.map(([, entry]) => entry.transport.close()));
      await modern?.close().catch(() => {});
      await (await subscribed)?.();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Serves a gateway over Streamable HTTP. Safe by default: binds to 127.0.0.1, refuses
 * foreign `Origin`s (403) and `Host`s, and requires a bearer token whenever it binds to
 * any other address. Each profile with a `token` in the config is chosen by that token.
 * Browser pages on the allowed origins get CORS answers (preflights included); sessions
 * idle for `idleTimeoutMs` (30 minutes by default) are closed. Sessions are capped per
 * token (a token at its cap closes its own oldest idle session), sockets are capped, and
 * slow headers and bodies are cut off (408). The gateway's `close()` drains and closes
 * the listener with its sessions.
 *
 * @example
 * ```ts
 * const gateway = createGatewayServer({ pool, config });
 * const listener = await listenGatewayHttp(gateway, { port: 3000, token });
 * console.log(listener.url);
 * ```
 *
 * @param gateway - the gateway whose sessions it serves
 * @param options - see {@link GatewayHttpOptions}
 * @returns the listener with its `url` and `close()`
 * @throws {@link ToolSearchError} `invalid_config` when binding to a non-loopback
 * address without a token, for a token shorter than 16 characters, an allowed origin
 * that is not a serialized origin, a negative `idleTimeoutMs`, or a session,
 * connection or timeout limit that is not a whole number of 1 or more;
 * `invalid_argument` once the gateway's `close()` began; the listen error when the
 * port is taken
 */
export async function listenGatewayHttp(
  gateway: GatewayServer,
  options: GatewayHttpOptions = {},
): Promise<GatewayHttpListener> {
  // Refuses at once while the gateway drains: a probe host that is forgotten again.
  gateway.attachHost({ stopAccepting() {}, close: async () => {} })();
  const onStoreError = gateway.onStoreError;
  const listener = await listenHttpHost(
    {
      createSession: (profile, id, principal) =>
        gateway.openSession({
          ...(profile === undefined ? {} : { profile }),
          id,
          ...(principal === undefined ? {} : { principal }),
        }),
      // A getter: the profiles in force, which a reload of the config replaces.
      get profiles() {
        return gateway.profiles;
      },
      ...(gateway.defaultProfile === undefined ? {} : { defaultProfile: gateway.defaultProfile }),
      store: gateway.store,
      readiness: () => gateway.readiness(),
      ...(onStoreError === undefined ? {} : { onStoreError }),
      modern: {
        view: (profile, principal, stateKey) =>
          gateway.statelessView({
            ...(profile === undefined ? {} : { profile }),
            principal,
            ...(stateKey === undefined ? {} : { stateKey }),
          }),
        onToolsChanged: (listener) => gateway.onToolsChanged(listener),
        onFeaturesChanged: (listener) => gateway.onFeaturesChanged(listener),
        serverInfo: gateway.serverInfo,
        ...(gateway.instructions === undefined ? {} : { instructions: gateway.instructions }),
      },
    },
    options,
  );
  const detach = gateway.attachHost(listener);
  const close = listener.close;
  return {
    ...listener,
    async close(closeOptions) {
      detach();
      await close(closeOptions);
    },
  };
}
