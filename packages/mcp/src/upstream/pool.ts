import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  type RequestId,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { echoName } from '@tool-search/bridge';
import type { ToolDefinition } from '@tool-search/core';
import { describeError, sameTools } from '@tool-search/core/internal';
import { errorResult } from '../tool-result/error-result.js';
import { holdAbandonedSlot } from './abandoned-hold.js';
import {
  DEFAULT_CALL_TIMEOUT_MS,
  DEFAULT_CANCEL_GRACE_MS,
  DEFAULT_MAX_CALL_TIME_MS,
  resolveCallLimits,
  runUpstreamCall,
  unavailableResult,
} from './call.js';
import { connectUpstream, type UpstreamConnection } from './connect.js';
import { createExposedTools } from './exposed-tools.js';
import { createFailedServerRetry, DEFAULT_RETRY_FAILED_MS } from './failed-retry.js';
import { DEFAULT_UPSTREAM_LIMITS, type UpstreamLimits } from './limits.js';
import { listUpstreamTools } from './list-tools.js';
import type {
  ReconnectOptions,
  UpstreamPool,
  UpstreamPoolConfig,
  UpstreamPoolOptions,
  UpstreamProgressEvent,
  UpstreamServerStatus,
} from './pool-types.js';
import { type RequestWatch, watchRequests } from './request-watch.js';
import { createToolReviewGate } from './review.js';
import {
  createUpstream,
  LISTED_STATES,
  liveFingerprints,
  type Upstream,
  upstreamStatus,
} from './upstream-state.js';

export { errorResult, UPSTREAM_ERROR_META_KEY } from '../tool-result/error-result.js';
export type { UpstreamServerInput, UpstreamTransportKind } from './connect.js';
export type {
  ReconnectOptions,
  RejectedTool,
  UpstreamCallOptions,
  UpstreamPool,
  UpstreamPoolConfig,
  UpstreamPoolOptions,
  UpstreamProgressEvent,
  UpstreamServerStatus,
  UpstreamState,
  UpstreamToolInfo,
} from './pool-types.js';

const LIST_CHANGED_DEBOUNCE_MS = 25;
// A connection that lived this long resets the backoff; a server that keeps crashing
// soon after it starts climbs the backoff and is given up after `maxAttempts`.
const STABLE_CONNECTION_MS = 30_000;

/**
 * Creates a pool of connections to the upstream MCP servers of a config: stdio
 * servers are spawned, HTTP servers are reached over Streamable HTTP with SSE as
 * the fallback. Nothing connects until `start()`.
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
  const connectTimeoutMs = options.connectTimeoutMs ?? 30_000;
  const callTimeoutMs = options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  const reconnect: Required<ReconnectOptions> | undefined =
    options.reconnect === false
      ? undefined
      : {
          initialDelayMs: 500,
          maxDelayMs: 30_000,
          maxAttempts: 8,
          retryFailedMs: DEFAULT_RETRY_FAILED_MS,
          ...(typeof options.reconnect === 'object' ? options.reconnect : {}),
        };
  const clientInfo = options.clientInfo ?? { name: 'tool-search-gateway', version: '0.0.0' };
  const limits: UpstreamLimits = { ...DEFAULT_UPSTREAM_LIMITS, ...config.limits };
  const review = createToolReviewGate(config.review, options.sharedReview);

  const maxCallTimeMs = options.maxCallTimeMs ?? DEFAULT_MAX_CALL_TIME_MS;
  const cancelGraceMs = options.cancelGraceMs ?? DEFAULT_CANCEL_GRACE_MS;
  const watches = new WeakMap<Client, RequestWatch>();
  const upstreams: Upstream[] = Object.entries(config.mcpServers).map(([name, server]) =>
    createUpstream(name, server),
  );
  const byName = new Map(upstreams.map((upstream) => [upstream.name, upstream]));

  const exposed = createExposedTools(config.pins);
  const toolsListeners = new Set<(tools: ToolDefinition[]) => void>();
  const progressListeners = new Set<(event: UpstreamProgressEvent) => void>();
  if (options.onProgress) progressListeners.add(options.onProgress);
  let started: Promise<UpstreamServerStatus[]> | undefined;
  let closed = false;

  const statusOf = (upstream: Upstream): UpstreamServerStatus =>
    upstreamStatus(upstream, exposed.countOf(upstream.name));

  const emit = (kind: UpstreamProgressEvent['kind'], upstream: Upstream) => {
    const event = { kind, server: upstream.name, status: statusOf(upstream) };
    for (const listener of progressListeners) {
      try {
        listener(event);
      } catch {
        // A display must not take the pool down.
      }
    }
  };

  // Re-derives the exposed list from the live servers; tells listeners when it changed.
  const recompute = (): boolean => {
    const entries = upstreams
      .filter((upstream) => LISTED_STATES.has(upstream.state))
      .flatMap((upstream) => upstream.tools.map((tool) => ({ server: upstream.name, tool })));
    if (!exposed.update(entries)) return false;
    if (closed) return true;
    const tools = exposed.list();
    for (const listener of toolsListeners) {
      try {
        listener(tools.slice());
      } catch {
        // A listener must not take the pool down.
      }
    }
    return true;
  };

  const listAll = async (upstream: Upstream, client: Client, signal?: AbortSignal) => {
    const listed = await listUpstreamTools(client, {
      server: upstream.name,
      trusted: upstream.config.trusted === true,
      limits,
      timeoutMs: connectTimeoutMs,
      signal,
      previous: upstream.listed,
    });
    upstream.listed = listed.listed;
    upstream.fingerprints = listed.fingerprints;
    upstream.cut = listed.cut;
    upstream.ignoredPins = listed.ignoredPins;
    upstream.rejected = listed.rejected;
    applyReview(upstream);
  };

  // Held tools stay in `listed` but out of `tools`: not listed, not callable.
  const applyReview = (upstream: Upstream) => {
    upstream.held = [];
    upstream.tools = upstream.listed.filter((tool) => {
      const held = review.held(upstream.name, tool.name, upstream.fingerprints.get(tool.name)!);
      if (held !== undefined) upstream.held.push({ ...held, tool });
      return held === undefined;
    });
  };

  const onReviewChanged = () => {
    if (closed) return;
    const live = upstreams.filter(
      (upstream) => upstream.state === 'ready' || upstream.state === 'reconnecting',
    );
    const before = new Map(live.map((upstream) => [upstream, upstream.tools]));
    for (const upstream of live) applyReview(upstream);
    recompute();
    for (const upstream of live) {
      if (!sameTools(before.get(upstream) ?? [], upstream.tools)) emit('tools_changed', upstream);
    }
  };

  const scheduleRefresh = (upstream: Upstream, generation: number) => {
    if (upstream.refreshTimer) clearTimeout(upstream.refreshTimer);
    upstream.refreshTimer = setTimeout(() => {
      upstream.refreshTimer = undefined;
      upstream.listing = upstream.listing.then(async () => {
        const client = upstream.connection?.client;
        if (
          client === undefined ||
          upstream.generation !== generation ||
          upstream.state !== 'ready'
        )
          return;
        try {
          await listAll(upstream, client);
        } catch (error) {
          // The close handler deals with a dead server; a failed re-list keeps the last list.
          upstream.error = `re-listing tools failed: ${describeError(error)}`;
          return;
        }
        if (upstream.generation !== generation) return;
        if (recompute()) emit('tools_changed', upstream);
      });
    }, LIST_CHANGED_DEBOUNCE_MS);
  };

  // One connect-and-list attempt; true when the server is ready.
  const connect = async (upstream: Upstream): Promise<boolean> => {
    const generation = ++upstream.generation;
    const began = performance.now();
    const controller = new AbortController();
    upstream.connecting = controller;
    const timer = setTimeout(
      () => controller.abort(new Error('connect timeout')),
      connectTimeoutMs,
    );
    let connection: UpstreamConnection | undefined;
    try {
      connection = await connectUpstream(upstream.config, {
        clientInfo,
        timeoutMs: connectTimeoutMs,
        signal: controller.signal,
        onStderr: options.onStderr && ((text) => options.onStderr?.(upstream.name, text)),
        prepare: (client) => {
          client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
            scheduleRefresh(upstream, generation);
          });
          client.onclose = () => onClosed(upstream, generation);
        },
      });
      await listAll(upstream, connection.client, controller.signal);
      if (closed || upstream.generation !== generation) {
        await connection.client.close().catch(() => {});
        return false;
      }
      upstream.connection = connection;
      const transport = connection.client.transport;
      if (transport !== undefined) watches.set(connection.client, watchRequests(transport));
      upstream.transport = connection.kind;
      upstream.connectMs = Math.round(performance.now() - began);
      upstream.state = 'ready';
      upstream.readyAt = Date.now();
      delete upstream.error;
      recompute();
      emit('ready', upstream);
      return true;
    } catch (error) {
      upstream.error = controller.signal.aborted
        ? `did not start, connect and list its tools within ${connectTimeoutMs} ms`
        : describeError(error);
      if (connection) await connection.client.close().catch(() => {});
      return false;
    } finally {
      clearTimeout(timer);
      if (upstream.connecting === controller) delete upstream.connecting;
    }
  };

  const scheduleReconnect = (upstream: Upstream) => {
    if (closed || reconnect === undefined) return;
    if (upstream.attempts >= reconnect.maxAttempts) {
      upstream.state = 'failed';
      upstream.error = `gave up after ${upstream.attempts} reconnect attempts; last error: ${upstream.error ?? 'unknown'}`;
      recompute();
      emit('failed', upstream);
      retry?.failed(upstream.name);
      return;
    }
    upstream.attempts += 1;
    const delay = Math.min(
      reconnect.maxDelayMs,
      reconnect.initialDelayMs * 2 ** (upstream.attempts - 1),
    );
    upstream.state = 'reconnecting';
    emit('reconnecting', upstream);
    upstream.reconnectTimer = setTimeout(async () => {
      upstream.reconnectTimer = undefined;
      if (closed) return;
      const ok = await connect(upstream);
      if (!ok && !closed) {
        upstream.state = 'reconnecting';
        scheduleReconnect(upstream);
      }
    }, delay);
    upstream.reconnectTimer.unref?.();
  };

  function onClosed(upstream: Upstream, generation: number): void {
    if (closed || upstream.generation !== generation || upstream.state !== 'ready') return;
    const tail = upstream.connection?.stderrTail() ?? '';
    upstream.connection = undefined;
    if (upstream.readyAt !== undefined && Date.now() - upstream.readyAt >= STABLE_CONNECTION_MS) {
      upstream.attempts = 0;
    }
    upstream.error = `the connection closed${tail ? `; stderr: ${tail.split('\n').slice(-3).join(' | ')}` : ''}`;
    if (reconnect === undefined) {
      // Nothing will bring it back: its last known tools go with it.
      upstream.state = 'failed';
      upstream.tools = [];
      recompute();
      emit('failed', upstream);
      return;
    }
    upstream.state = 'reconnecting';
    emit('disconnected', upstream);
    scheduleReconnect(upstream);
  }

  const startOne = async (upstream: Upstream) => {
    if (upstream.state !== 'pending') return;
    upstream.state = 'connecting';
    emit('connecting', upstream);
    const ok = await connect(upstream);
    if (!ok && !closed && upstream.state === 'connecting') {
      upstream.state = 'failed';
      emit('failed', upstream);
      retry?.failed(upstream.name);
    }
  };

  // One retry of a failed server: `reconnecting` while it runs, so its tools stay listed.
  const retryFailed = async (name: string): Promise<boolean> => {
    const upstream = byName.get(name);
    if (closed || upstream === undefined || upstream.state !== 'failed') return true;
    upstream.state = 'reconnecting';
    emit('retrying', upstream);
    const ok = await connect(upstream);
    if (ok) {
      upstream.attempts = 0;
      return true;
    }
    if (!closed && upstream.state === 'reconnecting') {
      upstream.state = 'failed';
      upstream.error = `retry failed: ${upstream.error ?? 'unknown error'}`;
      emit('failed', upstream);
    }
    return closed;
  };
  const retry =
    reconnect === undefined
      ? undefined
      : createFailedServerRetry({
          intervalMs: reconnect.retryFailedMs > 0 ? reconnect.retryFailedMs : 2 ** 31 - 1,
          attempt: retryFailed,
        });

  // A call that timed out or was cancelled holds its queue slot until the server stopped it.
  const holdAbandoned = (upstream: Upstream, client: Client, id: RequestId | undefined) =>
    holdAbandonedSlot(
      {
        server: upstream.name,
        watch: watches.get(client),
        graceMs: upstream.config.cancelGraceMs ?? cancelGraceMs,
        restartCapMs: connectTimeoutMs + (reconnect?.maxDelayMs ?? 0),
        isLive: () => !closed && upstream.connection?.client === client,
        restart: () => {
          client.close().catch(() => {});
        },
        onProgress: (listener) => {
          progressListeners.add(listener);
          return () => progressListeners.delete(listener);
        },
      },
      id,
    );

  const callTool: UpstreamPool['callTool'] = async (name, args, callOptions = {}) => {
    const entry = exposed.get(name)?.entry;
    if (entry === undefined) {
      return errorResult(
        'unknown_tool',
        `Tool '${echoName(name)}' is not served by any connected upstream server. Check the name against tools/list.`,
      );
    }
    const upstream = byName.get(entry.server)!;
    const unavailable = () =>
      unavailableResult({
        server: upstream.name,
        name,
        state: upstream.state,
        attempts: upstream.attempts,
        error: upstream.error,
        // A call of a failed server's tool is what starts its retry.
        retry: upstream.state === 'failed' ? retry?.demand(upstream.name) : undefined,
      });
    if (upstream.state !== 'ready' || upstream.connection === undefined) return unavailable();
    if (callOptions.signal?.aborted) {
      return errorResult('aborted', `The call of '${name}' was cancelled before it started.`);
    }
    // Arguments the gateway cannot serialise (a hook put a BigInt or a cycle there) are
    // the gateway's failure: the request never leaves, and the server is not blamed.
    try {
      JSON.stringify(args);
    } catch (error) {
      return errorResult(
        'invalid_argument',
        `The gateway could not serialise the arguments of '${name}' (${describeError(error)}); the call was not sent to server '${upstream.name}'. This is a fault in the gateway or one of its hooks, not in the server.`,
      );
    }
    return runUpstreamCall({
      server: upstream.name,
      name,
      upstreamName: entry.tool.name,
      args,
      limits: resolveCallLimits({
        call: callOptions,
        server: upstream.config,
        pool: { callTimeoutMs, maxCallTimeMs },
      }),
      client: () => (upstream.state === 'ready' ? upstream.connection?.client : undefined),
      unavailable,
      queue: upstream.queue,
      signal: callOptions.signal,
      onProgress: callOptions.onProgress,
      restarting: reconnect !== undefined,
      watch: (client) => watches.get(client),
      hold: (client, id) => holdAbandoned(upstream, client, id).catch(() => {}),
    });
  };

  return {
    start() {
      if (closed) return Promise.resolve(upstreams.map(statusOf));
      started ??= review.load().then(() => {
        if (!closed) review.watch(onReviewChanged);
        return Promise.all(upstreams.map(startOne)).then(() => upstreams.map(statusOf));
      });
      return started;
    },
    tools: () => exposed.list().slice(),
    lookup(name) {
      const found = exposed.get(name);
      if (found === undefined) return undefined;
      return {
        name,
        server: found.entry.server,
        upstreamName: found.entry.tool.name,
        tool: found.tool,
      };
    },
    status: () => upstreams.map(statusOf),
    fingerprints: () => liveFingerprints(upstreams),
    callTool,
    onToolsChanged(listener) {
      toolsListeners.add(listener);
      return () => toolsListeners.delete(listener);
    },
    onProgress(listener) {
      progressListeners.add(listener);
      return () => progressListeners.delete(listener);
    },
    async close() {
      if (closed) return;
      closed = true;
      review.close();
      retry?.close();
      await Promise.allSettled(
        upstreams.map(async (upstream) => {
          if (upstream.reconnectTimer) clearTimeout(upstream.reconnectTimer);
          if (upstream.refreshTimer) clearTimeout(upstream.refreshTimer);
          upstream.connecting?.abort(new Error('the pool is closing'));
          upstream.generation += 1;
          const connection = upstream.connection;
          upstream.connection = undefined;
          if (upstream.state !== 'disabled') upstream.state = 'closed';
          await connection?.client.close();
        }),
      );
    },
  };
}
