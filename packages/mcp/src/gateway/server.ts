import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Implementation } from '@modelcontextprotocol/sdk/types.js';
import { type SearchLearner, ToolSearchError } from '@tool-search/core';
import type { GatewayProfile } from '../config/schemas.js';
import type { GatewayStore } from '../store/types.js';
import type { DrainReport } from './call-drain.js';
import {
  applyGatewayPolicy,
  type GatewayPolicyConfig,
  type GatewayPolicyReport,
} from './policy-reload.js';
import { featuresOf } from './protocol-features.js';
import {
  checkProfile,
  createGatewayState,
  type GatewayHost,
  type GatewayReadiness,
  type GatewayState,
  gatewayReadiness,
  openSession,
} from './server-state.js';
import type { GatewaySessionContext } from './session-state.js';
import type { GatewayStatelessView } from './stateless-session.js';
import type {
  GatewayCloseOptions,
  GatewayConnectOptions,
  GatewayOpenSessionOptions,
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
   * Opens a session whose transport a host connects itself (`session.server.connect`):
   * what a hosting package (Streamable HTTP in `@tool-search/mcp-http`) calls for each
   * new client. {@link GatewayServer.connect} is this plus the connect.
   *
   * @param options.profile - the session's profile @defaultValue the gateway's `profile`
   * @param options.id - the session id @defaultValue a random UUID
   * @param options.principal - who opened it (e.g. its token's principal)
   * @returns the session, not yet connected
   * @throws {@link ToolSearchError} `invalid_config` for an unknown profile;
   * `invalid_argument` once {@link GatewayServer.close} began
   */
  openSession(options?: GatewayOpenSessionOptions): GatewaySession;
  /**
   * Registers a host (a listener of a transport of its own) so that
   * {@link GatewayServer.close} stops it accepting before the drain and closes it after.
   *
   * @param host - the host
   * @returns a function that forgets the host (call it when the host closes first)
   * @throws {@link ToolSearchError} `invalid_argument` once {@link GatewayServer.close} began
   */
  attachHost(host: GatewayHost): () => void;
  /**
   * What a stateless (2026-07-28) client of a credential sees: its tool list (the
   * bridge tools and what its profile pins or loads eagerly) and its calls, through the
   * same scope, guardrails, approval, audit and learning as a session of that profile,
   * keyed by the credential instead of a session.
   *
   * @param options.profile - the credential's profile @defaultValue the gateway's `profile`
   * @param options.principal - the credential's principal @defaultValue `''`
   * @param options.stateKey - the HMAC key of its `requestState`s, the same on every
   * replica (a host derives it from the operator's tokens) @defaultValue random, this
   * process only
   * @returns the view
   * @throws {@link ToolSearchError} `invalid_config` for an unknown profile
   */
  statelessView(options?: {
    profile?: string;
    principal?: string;
    stateKey?: Uint8Array;
  }): GatewayStatelessView;
  /**
   * Listens for changes of the upstreams' tools (a stateless host tells its listeners).
   *
   * @param listener - called after each change
   * @returns a function that stops listening
   * @throws nothing
   */
  onToolsChanged(listener: () => void): () => void;
  /**
   * Listens for changes of the upstreams' resources and prompts (a stateless host pushes
   * them to its listen streams): a list changed, or a subscribed resource was updated.
   *
   * @param listener - called after each change
   * @returns a function that stops listening
   * @throws nothing
   */
  onFeaturesChanged(listener: (change: GatewayFeatureChange) => void): () => void;
  /** How the gateway introduces itself. */
  readonly serverInfo: Implementation;
  /** The instructions it gives clients, if any. */
  readonly instructions: string | undefined;
  /**
   * Applies a reloaded config's policy while the sessions go on: its guardrails, approval,
   * toolsets, tool search and profiles. Every open session meets the new rules at its next
   * request (calls in flight finish under the old ones); a session whose profile changed
   * takes the new scope (a 2025 client is told `tools/list_changed` when its list
   * changed); a session whose profile was removed is ended, and a later request with its
   * id is refused as an unknown session. Stateless (2026-07-28) clients get the new
   * policy at their next request. The servers, pins and other sections are not this
   * method's (the pool reloads servers). The profiles' tokens are read by a listener of
   * {@link listenGatewayHttp} at each request, so a token added works at once and one
   * removed is refused at once.
   *
   * @param config - the reloaded config (a {@link GatewayConfig} fits)
   * @returns how many sessions were refreshed, and the ids of those ended
   * @throws {@link ToolSearchError} `invalid_config`, changing nothing, for toolsets that
   * do not make a registry or a config without the gateway's default profile;
   * `invalid_argument` once `close()` began
   */
  applyConfig(config: GatewayPolicyConfig): Promise<GatewayPolicyReport>;
  /** The profiles in force by name (a host maps its tokens to them; a reload replaces them). */
  readonly profiles: Readonly<Record<string, GatewayProfile>>;
  /** The profile of a session opened without one, if the options named one. */
  readonly defaultProfile: string | undefined;
  /** Told of store trouble that did not fail a request (from the options). */
  readonly onStoreError: ((message: string) => void) | undefined;
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
 * `batchDeadlineMs` or `credentialAllowMs` is not a positive integer
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
    openSession: (openOptions = {}) => {
      refuseWhileDraining(state, 'it takes no new sessions');
      return openSession(
        state,
        openOptions.profile ?? options.profile,
        openOptions.id,
        openOptions.principal,
      );
    },
    attachHost: (host) => {
      refuseWhileDraining(state, 'it takes no new host');
      state.listeners.add(host);
      return () => state.listeners.delete(host);
    },
    statelessView: (viewOptions = {}) => {
      const profileName = viewOptions.profile ?? options.profile;
      const profile = checkProfile(state.profiles, profileName);
      return state.stateless.view(
        profileName,
        profile,
        viewOptions.principal ?? '',
        viewOptions.stateKey,
      );
    },
    onToolsChanged: (listener) => options.pool.onToolsChanged(listener),
    onFeaturesChanged: (listener) => onFeaturesChanged(state.sessionContext, listener),
    serverInfo: state.sessionContext.serverInfo,
    instructions: options.instructions,
    get profiles() {
      return state.profiles;
    },
    applyConfig: (config) => {
      refuseWhileDraining(state, 'it takes no new config');
      return applyGatewayPolicy(state, config);
    },
    defaultProfile: options.profile,
    onStoreError: options.onStoreError,
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

async function closeGateway(
  state: GatewayState,
  closeOptions: GatewayCloseOptions,
): Promise<DrainReport> {
  const { listeners, sessions } = state;
  state.sessionContext.settle.dispose();
  state.stopObserving();
  for (const listener of listeners) listener.stopAccepting();
  const report = await state.drain.drain(closeOptions.graceMs ?? 0);
  // The answers are on their way: stdio writes them within this turn, HTTP
  // listeners wait (briefly) for their responses to end before closing.
  await new Promise((resolve) => setImmediate(resolve));
  await Promise.allSettled([...listeners].map((listener) => listener.close({ graceMs: FLUSH_MS })));
  listeners.clear();
  await Promise.allSettled([...sessions.values()].map((session) => session.close()));
  state.stateless.close();
  await state.sessionContext.inbox?.close().catch(() => {});
  await state.sessionContext.programs?.close().catch(() => {});
  return report;
}

/** A change of the upstreams' resources or prompts, as a stateless host pushes it. */
export type GatewayFeatureChange =
  | { kind: 'resources_list_changed' | 'prompts_list_changed'; server: string }
  | { kind: 'resource_updated'; server: string; uri: string };

function onFeaturesChanged(
  context: GatewaySessionContext,
  listener: (change: GatewayFeatureChange) => void,
): () => void {
  const hub = featuresOf(context);
  if (hub === undefined) return () => {};
  return hub.onEvent((event) => {
    if (event.kind === 'resources_changed') {
      listener({ kind: 'resources_list_changed', server: event.server });
    } else if (event.kind === 'prompts_changed') {
      listener({ kind: 'prompts_list_changed', server: event.server });
    } else if (event.kind === 'resource_updated') {
      listener({ kind: 'resource_updated', server: event.server, uri: event.uri });
    }
  });
}
