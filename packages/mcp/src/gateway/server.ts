import { randomUUID } from 'node:crypto';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type ToolSearchConfig, ToolSearchError } from '@tool-search/core';
import { describeError } from '@tool-search/core/internal';
import { createToolsetRegistry, type ToolsetRegistry } from '@tool-search/toolsets';
import {
  DEFAULT_APPROVAL_CONFIG,
  DEFAULT_GUARDRAILS_CONFIG,
  type GatewayProfile,
} from '../config/schemas.js';
import { createStoreAuditHook } from '../store/audit-trail.js';
import { createMemoryStore } from '../store/memory-store.js';
import type { GatewayStore } from '../store/types.js';
import { DEFAULT_UPSTREAM_LIMITS } from '../upstream/limits.js';
import type { UpstreamPool } from '../upstream/pool-types.js';
import { waitForUpstreams } from '../upstream/wait.js';
import { createCallDrain, type DrainReport } from './call-drain.js';
import { createConfigGuardrails } from './guardrails.js';
import { type GatewayHttpListener, type GatewayHttpOptions, listenGatewayHttp } from './http.js';
import type { GatewayReadiness } from './http-health.js';
import { createGatewaySession } from './session.js';
import type {
  GatewayActivity,
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
 *   otherwise `config.approval.fallback` decides; no answer in time means deny.
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
  const config = options.config ?? {};
  const { batchDeadlineMs } = options;
  if (
    batchDeadlineMs !== undefined &&
    (!Number.isInteger(batchDeadlineMs) || batchDeadlineMs < 1 || batchDeadlineMs > 2 ** 31 - 1)
  ) {
    throw new ToolSearchError(
      'invalid_argument',
      `createGatewayServer: batchDeadlineMs must be a positive integer of milliseconds (at most 2147483647), got ${String(batchDeadlineMs)}.`,
    );
  }
  const profiles: Record<string, GatewayProfile> = config.profiles ?? {};
  const toolSearch: ToolSearchConfig | undefined = config.toolSearch;
  const approvalConfig = config.approval ?? DEFAULT_APPROVAL_CONFIG;
  const serverInfo = options.serverInfo ?? { name: 'tool-search-gateway', version: '0.0.0' };
  const maxDescriptionChars =
    config.limits?.maxDescriptionChars ?? DEFAULT_UPSTREAM_LIMITS.maxDescriptionChars;

  let registry: ToolsetRegistry;
  try {
    registry = createToolsetRegistry(config.toolsets ?? []);
  } catch (error) {
    throw new ToolSearchError('invalid_config', `Invalid toolsets: ${describeError(error)}`, {
      cause: error,
    });
  }
  const checkProfile = (name: string | undefined): GatewayProfile | undefined => {
    if (name === undefined) return undefined;
    const profile = profiles[name];
    if (profile === undefined) {
      const known = Object.keys(profiles);
      throw new ToolSearchError(
        'invalid_config',
        `Unknown profile '${name}' (${known.length ? `known: ${known.join(', ')}` : 'the config defines none'}).`,
      );
    }
    return profile;
  };
  checkProfile(options.profile);

  // Shared by every session: they hold no per-session state (the schema guardrail finds
  // the tool in the dispatch context, which each session resolves within its own scope).
  const guardrails = [
    ...createConfigGuardrails(
      config.guardrails ?? DEFAULT_GUARDRAILS_CONFIG,
      options.onSkippedKeyword === undefined ? {} : { onSkippedKeyword: options.onSkippedKeyword },
    ),
    ...(options.guardrails ?? []),
  ];

  const sessions = new Map<string, GatewaySession>();
  const store = options.store ?? createMemoryStore();
  const auditHook = createStoreAuditHook(
    store,
    (sessionId) => (sessionId === undefined ? undefined : sessions.get(sessionId)?.profile),
    (record, error) =>
      options.onStoreError?.(
        `the audit record of a call of '${record.tool}' (session ${record.sessionId ?? '-'}) was not written: ${describeError(error)}`,
      ),
  );
  let upstreamsSettledYet = options.upstreamsReady === undefined;
  void Promise.resolve(options.upstreamsReady).then(
    () => {
      upstreamsSettledYet = true;
    },
    () => {
      upstreamsSettledYet = true;
    },
  );
  const readiness = async (): Promise<GatewayReadiness> => {
    // Only whether it answers: `/readyz` needs no token, so where the store lives and
    // why it failed stay in the log (the store reports going down and coming back).
    let storeState = 'ok';
    try {
      await store.ping();
    } catch {
      storeState = 'unavailable';
    }
    const status = (options.pool as Partial<Pick<UpstreamPool, 'status'>>).status;
    const states = typeof status === 'function' ? status.call(options.pool) : [];
    const upstreams: Record<string, number> = {};
    for (const server of states) upstreams[server.state] = (upstreams[server.state] ?? 0) + 1;
    const upstreamsOk =
      upstreamsSettledYet && (states.length === 0 || (upstreams['ready'] ?? 0) > 0);
    const ready = storeState === 'ok' && upstreamsOk;
    const detail = ready
      ? undefined
      : storeState !== 'ok'
        ? `the store does not answer (${store.kind}); see the gateway's log`
        : upstreamsSettledYet
          ? 'no upstream server is ready'
          : 'the upstream servers are still connecting';
    return {
      ready,
      store: storeState,
      upstreams,
      ...(detail === undefined ? {} : { detail }),
    };
  };
  const upstreamsSettled = waitForUpstreams(options.upstreamsReady, options.upstreamsWaitMs);
  const listeners = new Set<GatewayHttpListener>();
  // Every session's calls in flight, so that a shutdown answers each of them.
  const drain = createCallDrain();

  const emitActivity = (activity: GatewayActivity) => {
    try {
      options.onActivity?.(activity);
    } catch {
      // The feed must not break a call.
    }
  };

  const createSession = (profileName: string | undefined, id: string = randomUUID()) => {
    const profile = checkProfile(profileName);
    const session = createGatewaySession(
      {
        options,
        registry,
        toolSearch,
        approvalConfig,
        guardrails,
        ...(config.guardrails?.maxArgumentBytes === undefined
          ? {}
          : { maxArgumentBytes: config.guardrails.maxArgumentBytes }),
        serverInfo,
        maxDescriptionChars,
        upstreamsSettled,
        drain,
        emitActivity,
        onClosed: (closedId) => sessions.delete(closedId),
        store,
        auditHook,
      },
      profileName,
      profile,
      id,
    );
    sessions.set(id, session);
    return session;
  };

  return {
    async connect(transport, connectOptions = {}) {
      if (drain.draining) {
        throw new ToolSearchError(
          'invalid_argument',
          'The gateway is shutting down: it takes no new sessions.',
        );
      }
      const session = createSession(connectOptions.profile ?? options.profile);
      await session.server.connect(transport);
      return session;
    },
    async listenHttp(httpOptions = {}) {
      if (drain.draining) {
        throw new ToolSearchError(
          'invalid_argument',
          'The gateway is shutting down: it opens no new listener.',
        );
      }
      const listener = await listenGatewayHttp(
        {
          createSession: (profile, id) => createSession(profile, id),
          profiles,
          ...(options.profile === undefined ? {} : { defaultProfile: options.profile }),
          store,
          readiness,
          ...(options.onStoreError === undefined ? {} : { onStoreError: options.onStoreError }),
        },
        httpOptions,
      );
      listeners.add(listener);
      const close = listener.close;
      return {
        ...listener,
        async close(closeOptions) {
          listeners.delete(listener);
          await close(closeOptions);
        },
      };
    },
    sessions: () => [...sessions.values()],
    store,
    readiness,
    async close(closeOptions = {}) {
      for (const listener of listeners) listener.stopAccepting();
      const report = await drain.drain(closeOptions.graceMs ?? 0);
      // The answers are on their way: stdio writes them within this turn, HTTP
      // listeners wait (briefly) for their responses to end before closing.
      await new Promise((resolve) => setImmediate(resolve));
      await Promise.allSettled(
        [...listeners].map((listener) => listener.close({ graceMs: FLUSH_MS })),
      );
      listeners.clear();
      await Promise.allSettled([...sessions.values()].map((session) => session.close()));
      return report;
    },
  };
}
