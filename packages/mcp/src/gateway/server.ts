import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type SearchLearner, ToolSearchError } from '@tool-search/core';
import type { GatewayStore } from '../store/types.js';
import type { DrainReport } from './call-drain.js';
import { type GatewayHttpListener, type GatewayHttpOptions, listenGatewayHttp } from './http.js';
import type { GatewayReadiness } from './http-health.js';
import {
  createGatewayState,
  type GatewayState,
  gatewayReadiness,
  openSession,
} from './server-state.js';
import type {
  GatewayCloseOptions,
  GatewayConnectOptions,
  GatewayServerOptions,
  GatewaySession,
} from './types.js';

export type {
  GatewayActivity,
  GatewayCloseOptions,
  GatewayConnectOptions,
  GatewayServerOptions,
  GatewaySession,
  GatewayToolSource,
} from './types.js';

/** An MCP server that puts tool search in front of an upstream pool. */
export interface GatewayServer {
  /**
   * Serves one client over a transport, e.g. a `StdioServerTransport`.
   *
   * @param transport - the transport (not started)
   * @param options.profile - the session's profile
   * @returns the session, once the transport is started
   * @throws {@link ToolSearchError} `invalid_config` for an unknown profile;
   * `invalid_argument` once {@link GatewayServer.close} began
   */
  connect(transport: Transport, options?: GatewayConnectOptions): Promise<GatewaySession>;
  /**
   * Serves Streamable HTTP. Safe by default: binds to 127.0.0.1, refuses foreign
   * `Origin`s (403) and `Host`s, and requires a bearer token whenever it binds to any
   * other address. Each profile with a `token` in the config is chosen by that token.
   * Browser pages on the allowed origins get CORS answers (preflights included);
   * sessions idle for `idleTimeoutMs` (30 minutes by default) are closed. Sessions are
   * capped per token (a token at its cap closes its own oldest idle session), sockets
   * are capped, and slow headers and bodies are cut off (408).
   *
   * @param options - see {@link GatewayHttpOptions}
   * @returns the listener with its `url` and `close()`
   * @throws {@link ToolSearchError} `invalid_config` when binding to a non-loopback
   * address without a token, for a token shorter than 16 characters, an allowed origin
   * that is not a serialized origin, a negative `idleTimeoutMs`, or a session,
   * connection or timeout limit that is not a whole number of 1 or more;
   * `invalid_argument` once {@link GatewayServer.close} began; the listen error when
   * the port is taken
   */
  listenHttp(options?: GatewayHttpOptions): Promise<GatewayHttpListener>;
  /** The open sessions. */
  sessions(): GatewaySession[];
  /** Where sessions, approvals, events and the audit trail are kept. */
  readonly store: GatewayStore;
  /**
   * The learner of learning from use (its `stats` count the recorded pairs), when the
   * config's `learning.enabled` or the options' `learner` turned it on.
   */
  readonly learner: SearchLearner | undefined;
  /**
   * Whether this gateway should get traffic (`GET /readyz`): its store answers and its
   * upstreams' first connect round is over with at least one ready (or none configured).
   *
   * @returns the report
   * @throws nothing
   */
  readiness(): Promise<GatewayReadiness>;
  /**
   * Shuts down, not the pool: stops accepting (HTTP ports close, new sessions and
   * new calls are refused), lets the calls in flight finish for up to `graceMs`,
   * answers each one still running with a JSON-RPC error (code `-32000`,
   * `SHUTTING_DOWN_ERROR_CODE`, "The gateway is shutting down: …") and cancels
   * it upstream, then closes every session and HTTP listener.
   *
   * @param options.graceMs - how long calls in flight may still finish @defaultValue 0
   * @returns how many calls finished within the grace and how many were answered
   * with the shutdown error
   * @throws nothing
   */
  close(options?: GatewayCloseOptions): Promise<DrainReport>;
}

/** How long a listener is given to send the answers of a drain before it closes. */
const FLUSH_MS = 2_000;

/**
 * Creates an MCP gateway server: every client session gets its own scope (the
 * profile's toolsets), assembly (tool search's three bridge tools in place of the
 * deferred tools, when they are big enough to matter) and dispatch (guardrails,
 * hooks, approval, then the upstream pool).
 *
 * - `tools/list` returns the session's assembled tools.
 * - `tools/call` answers `tool_search` and `tool_describe` from the session's catalog,
 *   unwraps `tool_call`, routes a direct call of a deferred tool like `tool_call`, and
 *   dispatches visible tools; a tool outside the session's scope is refused without
 *   reaching any upstream.
 * - When the pool's tools change, each session re-assembles and its client is sent
 *   `notifications/tools/list_changed` if what it sees changed.
 * - Approval: the client is asked through MCP elicitation when it supports it;
 *   otherwise `config.approval.fallback` decides; no answer in time means deny. With
 *   `config.approval.via` `'console'` (or `'elicitation-or-console'` for clients without
 *   elicitation) the call waits in the store's approvals inbox for an operator instead.
 *
 * @example
 * ```ts
 * const config = await loadGatewayConfig('gateway.json');
 * const pool = createUpstreamPool(config);
 * await pool.start();
 * const gateway = createGatewayServer({ pool, config, contextWindow: 200_000 });
 * await gateway.connect(new StdioServerTransport());
 * ```
 *
 * @param options - see {@link GatewayServerOptions}
 * @returns the gateway
 * @throws {@link ToolSearchError} `invalid_config` for an unknown `profile` or bad
 * toolset definitions (a cycle, an unknown include); `invalid_argument` when
 * `batchDeadlineMs` is not a positive integer
 */
export function createGatewayServer(options: GatewayServerOptions): GatewayServer {
  const state = createGatewayState(options);
  return {
    async connect(transport, connectOptions = {}) {
      refuseWhileDraining(state, 'it takes no new sessions');
      const session = openSession(state, connectOptions.profile ?? options.profile);
      await session.server.connect(transport);
      return session;
    },
    listenHttp: (httpOptions = {}) => listenHttp(state, httpOptions),
    sessions: () => [...state.sessions.values()],
    store: state.store,
    learner: state.learner,
    readiness: () => gatewayReadiness(state),
    close: (closeOptions = {}) => closeGateway(state, closeOptions),
  };
}

function refuseWhileDraining(state: GatewayState, what: string): void {
  if (state.drain.draining) {
    throw new ToolSearchError('invalid_argument', `The gateway is shutting down: ${what}.`);
  }
}

async function listenHttp(
  state: GatewayState,
  httpOptions: GatewayHttpOptions,
): Promise<GatewayHttpListener> {
  refuseWhileDraining(state, 'it opens no new listener');
  const { options } = state;
  const listener = await listenGatewayHttp(
    {
      createSession: (profile, id, principal) => openSession(state, profile, id, principal),
      profiles: state.profiles,
      ...(options.profile === undefined ? {} : { defaultProfile: options.profile }),
      store: state.store,
      readiness: () => gatewayReadiness(state),
      ...(options.onStoreError === undefined ? {} : { onStoreError: options.onStoreError }),
    },
    httpOptions,
  );
  state.listeners.add(listener);
  const close = listener.close;
  return {
    ...listener,
    async close(closeOptions) {
      state.listeners.delete(listener);
      await close(closeOptions);
    },
  };
}

async function closeGateway(
  state: GatewayState,
  closeOptions: GatewayCloseOptions,
): Promise<DrainReport> {
  const { listeners, sessions } = state;
  state.sessionContext.settle.dispose();
  for (const listener of listeners) listener.stopAccepting();
  const report = await state.drain.drain(closeOptions.graceMs ?? 0);
  // The answers are on their way: stdio writes them within this turn, HTTP
  // listeners wait (briefly) for their responses to end before closing.
  await new Promise((resolve) => setImmediate(resolve));
  await Promise.allSettled([...listeners].map((listener) => listener.close({ graceMs: FLUSH_MS })));
  listeners.clear();
  await Promise.allSettled([...sessions.values()].map((session) => session.close()));
  await state.sessionContext.inbox?.close().catch(() => {});
  await state.sessionContext.programs?.close().catch(() => {});
  return report;
}
