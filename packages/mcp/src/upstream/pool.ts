import { callPoolTool } from './pool-call.js';
import { attachFailedRetry, closePool, startPool } from './pool-lifecycle.js';
import { reloadUpstreams, restartUpstream } from './pool-reload.js';
import { addProgressListener, createPoolState, type PoolState, statusOf } from './pool-state.js';
import type { UpstreamPool, UpstreamPoolConfig, UpstreamPoolOptions } from './pool-types.js';
import { type ChildPoolFactory, createProfileConnections } from './profile-pools.js';
import { liveFingerprints } from './upstream-state.js';

export { errorResult, UPSTREAM_ERROR_META_KEY } from '../tool-result/error-result.js';
export type { UpstreamServerInput, UpstreamTransportKind } from './connect.js';
export type {
  PoolReloadReport,
  ReconnectOptions,
  RejectedTool,
  RestartOutcome,
  UpstreamCallOptions,
  UpstreamPool,
  UpstreamPoolConfig,
  UpstreamPoolOptions,
  UpstreamProgressEvent,
  UpstreamServerStatus,
  UpstreamState,
  UpstreamToolInfo,
  UpstreamViewOptions,
} from './pool-types.js';

/**
 * Creates a pool of connections to the upstream MCP servers of a config: stdio
 * servers are spawned, HTTP servers are reached over Streamable HTTP with SSE as
 * the fallback, and an in-process entry (`{ transport: () => Transport }`, given in code)
 * through a new transport from its function at every connect and restart. Nothing
 * connects until `start()`.
 *
 * - Tools are listed page by page, converted with `fromMcpTool` and validated; a bad
 *   definition is rejected (see `status()`), the server's other tools serve.
 * - A name used by two servers (or by a bridge tool) is prefixed with the server's
 *   name on each of them; no tool is dropped.
 * - `notifications/tools/list_changed` is followed; a server that dies is reconnected
 *   with exponential backoff, and calls to it fail fast meanwhile. A server given up
 *   on (`failed`) keeps its last known tools listed and is retried every
 *   `reconnect.retryFailedMs` and whenever one of its tools is called.
 * - Calls: progress notifications reset the timeout (`callTimeoutMs`, per server or the
 *   pool's), up to `maxCallTimeMs`; `maxConcurrency` queues a server's calls (FIFO).
 * - Pins (`pins.servers`, `pins.tools`) set `alwaysLoad`; a server's own
 *   `_meta["anthropic/alwaysLoad"]` only when the config says `trusted: true`.
 * - Definitions over `limits` are refused (schema size, depth, whole size) or cut
 *   (descriptions, the cut marked); each is reported in `status()`.
 * - Every tool is fingerprinted (`fingerprints()`); with `review.hold` set, tools whose
 *   definition is new or changed against the review file are held back (not listed,
 *   not callable) until accepted, at start and on every `tools/list_changed`.
 *
 * @example
 * ```ts
 * const pool = createUpstreamPool(await loadGatewayConfig('gateway.json'));
 * await pool.start();
 * console.table(pool.status());
 * const result = await pool.callTool('read_file', { path: '/tmp/notes.txt' }, { timeoutMs: 5_000 });
 * await pool.close();
 * ```
 *
 * @param config - `mcpServers` and optional `pins` (a {@link GatewayConfig} fits)
 * @param options.connectTimeoutMs - per server @defaultValue 30000
 * @param options.callTimeoutMs - per call, unless the server sets its own @defaultValue 60000
 * @param options.maxCallTimeMs - the longest call, progress or not @defaultValue 600000
 * @param options.onProgress - lifecycle events, e.g. for a progress display
 * @param options.reconnect - backoff for servers that die, or `false` @defaultValue true
 * @returns the pool (not started)
 */
export function createUpstreamPool(
  config: UpstreamPoolConfig,
  options: UpstreamPoolOptions = {},
): UpstreamPool {
  return createPool(config, options, {}).pool;
}

// A server whose `auth` says `perProfile` is reached, for a profile, over a pool of its own
// (one server) that shares this pool's era cache: see profile-pools.ts.
const createPool: ChildPoolFactory = (config, options, shared) => {
  const state: PoolState = createPoolState(config, options, shared);
  attachFailedRetry(state);
  const profiles = createProfileConnections(state, config, createPool);
  const viewOf = (profile: string | undefined) =>
    profile === undefined ? state.exposed : profiles.view(profile);
  const pool: UpstreamPool = {
    start: () => startPool(state),
    tools: (view) => viewOf(view?.profile).list().slice(),
    settle: async (profile) => {
      if (profile !== undefined) await profiles.settle(profile);
    },
    lookup(name, view) {
      const found = viewOf(view?.profile).get(name);
      if (found === undefined) return undefined;
      return {
        name,
        server: found.entry.server,
        upstreamName: found.entry.tool.name,
        tool: found.tool,
      };
    },
    status() {
      // A tool held on a profile's connection is the operator's to accept, as any other.
      const { held } = profiles.review();
      return state.upstreams.map((upstream) => {
        const status = statusOf(state, upstream);
        for (const tool of held.get(upstream.name) ?? []) {
          if (!status.heldTools.some((known) => known.name === tool.name)) {
            status.heldTools.push(tool);
          }
        }
        return status;
      });
    },
    fingerprints: () => [
      ...liveFingerprints(state.upstreams),
      ...profiles.review().fingerprints,
      ...state.features.fingerprints(),
    ],
    features: state.features,
    callTool: (name, args, callOptions) =>
      callOptions?.profile === undefined
        ? callPoolTool(state, name, args, callOptions)
        : profiles.call(callOptions.profile, name, args, callOptions),
    onToolsChanged(listener) {
      state.toolsListeners.add(listener);
      return () => state.toolsListeners.delete(listener);
    },
    onProgress: (listener) => addProgressListener(state, listener),
    retry(server) {
      const upstream = state.byName.get(server);
      if (upstream === undefined) return 'unknown';
      if (upstream.state !== 'failed') return 'not_failed';
      return state.retry?.demand(server) ?? 'off';
    },
    async restart(server) {
      await profiles.closeServer(server);
      return restartUpstream(state, server);
    },
    async reload(servers, reloadOptions) {
      if (reloadOptions !== undefined && Object.hasOwn(reloadOptions, 'pins')) {
        profiles.setPins(reloadOptions.pins);
      }
      const report = await reloadUpstreams(state, servers, reloadOptions);
      // A profile's connection to a server that changed or went is closed; it reopens on use.
      await Promise.all(
        [...report.removed, ...report.changed].map((name) => profiles.closeServer(name)),
      );
      return report;
    },
    async close() {
      await closePool(state);
      await profiles.close();
    },
  };
  return { pool, state };
};
