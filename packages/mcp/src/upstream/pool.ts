import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  type CallToolResult,
  type Implementation,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { echoName } from '@tool-search/bridge';
import {
  describeError,
  fromMcpTool,
  type McpTool,
  type ToolDefinition,
  validateToolDefinitions,
} from '@tool-search/core';
import { z } from 'zod';
import type { GatewayPins } from '../config/config.js';
import { errorResult } from '../tool-result/error-result.js';
import {
  DEFAULT_CALL_TIMEOUT_MS,
  DEFAULT_MAX_CALL_TIME_MS,
  resolveCallLimits,
  runUpstreamCall,
  unavailableResult,
} from './call.js';
import { type CallQueue, createCallQueue } from './call-queue.js';
import {
  connectUpstream,
  type UpstreamConnection,
  type UpstreamServerInput,
  type UpstreamTransportKind,
} from './connect.js';
import { createFailedServerRetry, DEFAULT_RETRY_FAILED_MS } from './failed-retry.js';
import { type CutTool, DEFAULT_UPSTREAM_LIMITS, type UpstreamLimits } from './limits.js';
import { createPinMatcher } from './pin-matcher.js';
import {
  createToolReviewGate,
  type HeldTool,
  type ToolFingerprint,
  type ToolReviewConfig,
} from './review.js';
import { screenUpstreamTools } from './screen.js';
import { type NamedUpstreamTool, resolveToolNames } from './tool-names.js';

export { errorResult, UPSTREAM_ERROR_META_KEY } from '../tool-result/error-result.js';
export type { UpstreamServerInput, UpstreamTransportKind } from './connect.js';

/** What the pool needs of a config: the servers, and optionally the pins. */
export interface UpstreamPoolConfig {
  /** The upstream servers by name, in priority order (collisions are named in this order). */
  mcpServers: Readonly<Record<string, UpstreamServerInput>>;
  /** Tools that are never deferred (`alwaysLoad`). */
  pins?: Partial<GatewayPins>;
  /** How much of a definition is accepted and shown. @defaultValue {@link DEFAULT_UPSTREAM_LIMITS} */
  limits?: Partial<UpstreamLimits>;
  /** The review file and what it holds back. @defaultValue nothing held */
  review?: ToolReviewConfig;
}

/**
 * The lifecycle of one upstream server:
 * `connecting` → `ready` ⇄ `reconnecting` → `failed` → (a retry) `reconnecting`; `disabled`
 * in the config; `closed` after `close()`.
 */
export type UpstreamState =
  | 'pending'
  | 'connecting'
  | 'ready'
  | 'reconnecting'
  | 'failed'
  | 'disabled'
  | 'closed';

/** A tool definition that the pool rejected, with why. */
export interface RejectedTool {
  /** The name as the server sent it (or `<unnamed>`). */
  name: string;
  /** What was wrong with it. */
  error: string;
}

/** The state of one upstream server, as `status()` reports it. */
export interface UpstreamServerStatus {
  /** The server's name in the config. */
  name: string;
  /** Where it is in its lifecycle. */
  state: UpstreamState;
  /** How it is reached, once connected. */
  transport?: UpstreamTransportKind;
  /** The tools it serves through the pool (a `failed` server's are its last known ones). */
  toolCount: number;
  /** Definitions it sent that were rejected (bad schema, bad name, duplicate, over the limits). */
  rejectedTools: RejectedTool[];
  /** Definitions it sent whose description was cut to `limits.maxDescriptionChars`. */
  cutTools: CutTool[];
  /** Its tools that pinned themselves although the config does not trust it (not pinned). */
  ignoredPins: string[];
  /** Its tools held back until accepted into the review file (not listed, not callable). */
  heldTools: HeldTool[];
  /** Why it is `failed` or `reconnecting`. */
  error?: string;
  /** Milliseconds its last successful connect and tool listing took. */
  connectMs?: number;
  /** Reconnect attempts since it last went down (reset once a connection has lived 30 s). */
  reconnectAttempts: number;
}

/** A lifecycle event of one upstream server, for progress displays and logs. */
export interface UpstreamProgressEvent {
  /** What happened. */
  kind:
    | 'connecting'
    | 'ready'
    | 'failed'
    | 'disconnected'
    | 'reconnecting'
    | 'retrying'
    | 'tools_changed';
  /** The server's name. */
  server: string;
  /** Its status right after the event. */
  status: UpstreamServerStatus;
}

/** Backoff for servers that die. */
export interface ReconnectOptions {
  /** The first delay. @defaultValue 500 */
  initialDelayMs?: number;
  /** The longest delay. @defaultValue 30000 */
  maxDelayMs?: number;
  /** Attempts before the server is given up (`failed`). @defaultValue 8 */
  maxAttempts?: number;
  /**
   * Time between retries of a server that was given up on (or failed to start); a call
   * of one of its tools also starts a retry. `0` never retries on a schedule (calls
   * still do). @defaultValue 300000
   */
  retryFailedMs?: number;
}

/** Options of {@link createUpstreamPool}. */
export interface UpstreamPoolOptions {
  /** Time for one server to start, connect and list its tools. @defaultValue 30000 */
  connectTimeoutMs?: number;
  /**
   * Default timeout of one tool call: no answer and no progress for this long ends it
   * (progress notifications reset it). A server's own `callTimeoutMs` wins. @defaultValue 60000
   */
  callTimeoutMs?: number;
  /**
   * Default longest call, however much progress it reports (queue time included). A
   * server's own `maxCallTimeMs` wins; never below the call's timeout. @defaultValue 600000
   */
  maxCallTimeMs?: number;
  /** Called on every lifecycle event of every server. */
  onProgress?: (event: UpstreamProgressEvent) => void;
  /** Reconnect servers that die (`false` to never). @defaultValue true */
  reconnect?: boolean | ReconnectOptions;
  /** How the pool introduces itself to upstream servers. */
  clientInfo?: Implementation;
  /**
   * What stdio servers write to stderr (their logs). Absent: kept only as a short
   * tail for error messages, never printed. The text is the server's, raw: print it
   * through `sanitizeTerminalText`.
   */
  onStderr?: (server: string, text: string) => void;
}

/** Options of one {@link UpstreamPool.callTool} call. */
export interface UpstreamCallOptions {
  /** Cancels the call (the upstream is sent `notifications/cancelled`). */
  signal?: AbortSignal;
  /** This call's timeout; wins over every other. @defaultValue the server's, else `defaultTimeoutMs`, else the pool's */
  timeoutMs?: number;
  /** The timeout when the server's config sets none (the gateway server's `callTimeoutMs`). */
  defaultTimeoutMs?: number;
  /** Progress notifications of the upstream for this call. */
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

/** Where a pooled tool comes from. */
export interface UpstreamToolInfo {
  /** The name the pool exposes. */
  name: string;
  /** The server's name. */
  server: string;
  /** The tool's name on that server. */
  upstreamName: string;
  /** The definition as exposed. */
  tool: ToolDefinition;
}

/**
 * A pool of connections to upstream MCP servers that serves their tools as one list
 * of {@link ToolDefinition}s (`source: 'mcp'`, `toolset: 'mcp-<server>'`).
 */
export interface UpstreamPool {
  /**
   * Connects to every enabled server in parallel and lists its tools. A server that
   * fails to start, times out or answers badly is reported (`failed`) and skipped (and
   * retried later, unless `reconnect` is `false`); the others serve. Calling it again
   * returns the same promise.
   *
   * @returns the status of every server once each is `ready` or `failed`
   * @throws nothing
   */
  start(): Promise<UpstreamServerStatus[]>;
  /**
   * The tools of every live server, with collision-free names and their `origin`
   * (server and upstream name), servers in config order.
   */
  tools(): ToolDefinition[];
  /** Where a pooled tool comes from, by its exposed name. */
  lookup(name: string): UpstreamToolInfo | undefined;
  /** The status of every server, in config order. */
  servers(): UpstreamServerStatus[];
  /**
   * The fingerprint of every tool of the live servers, held ones included (refused
   * ones not), as the servers sent them: what `inspect --accept` writes.
   */
  fingerprints(): ToolFingerprint[];
  /** The same as {@link UpstreamPool.servers}. */
  status(): UpstreamServerStatus[];
  /**
   * Calls a pooled tool on its server. Never throws: an unknown tool, a server that
   * is down, a timeout, a crash during the call and a cancellation each give an
   * `isError` result whose text says what happened and what to do, with the code
   * under `_meta["tool-search/error"]` (`unknown_tool`, `upstream_unavailable`,
   * `upstream_timeout`, `upstream_failed`, `aborted`). A call of a `failed` server's
   * tool starts a reconnect attempt and answers `upstream_unavailable` at once, saying
   * so. A server with `maxConcurrency` runs its calls in arrival order; a call waits
   * in that queue at most its timeout, and its `maxCallTimeMs` counts from arrival.
   *
   * @param name - the exposed name
   * @param args - the arguments object
   * @param options.signal - cancels the call
   * @param options.timeoutMs - this call's timeout (wins over the server's)
   * @param options.defaultTimeoutMs - the timeout when the server's config sets none
   * @returns the upstream's `CallToolResult`, or an error result
   */
  callTool(
    name: string,
    args: Record<string, unknown>,
    options?: UpstreamCallOptions,
  ): Promise<CallToolResult>;
  /**
   * Listens for changes of `tools()`: a server's `tools/list_changed`, a server that
   * comes up. A server that is given up keeps its last known tools. Not called when a re-list gives the same tools.
   *
   * @returns a function that removes the listener
   */
  onToolsChanged(listener: (tools: ToolDefinition[]) => void): () => void;
  /** Listens for lifecycle events (the same as `options.onProgress`). @returns an unsubscribe function */
  onProgress(listener: (event: UpstreamProgressEvent) => void): () => void;
  /** Disconnects from every server and stops reconnecting. */
  close(): Promise<void>;
}

const ListToolsPageSchema = z.looseObject({
  tools: z.array(z.unknown()),
  nextCursor: z.string().optional(),
});

const MAX_LIST_PAGES = 100;
// A failed server keeps its last known tools listed: names stay stable (no other tool is
// renamed by its going), and a call of one of them is what starts a retry.
const LISTED_STATES = new Set<UpstreamState>(['ready', 'reconnecting', 'failed']);
const LIST_CHANGED_DEBOUNCE_MS = 25;
// A connection that lived this long resets the backoff; a server that keeps crashing
// soon after it starts climbs the backoff and is given up after `maxAttempts`.
const STABLE_CONNECTION_MS = 30_000;

interface Upstream {
  name: string;
  config: UpstreamServerInput;
  state: UpstreamState;
  connection?: UpstreamConnection;
  transport?: UpstreamTransportKind;
  tools: ToolDefinition[];
  /** Every accepted definition; `tools` without the held ones. */
  listed: ToolDefinition[];
  fingerprints: Map<string, string>;
  held: HeldTool[];
  cut: CutTool[];
  ignoredPins: string[];
  rejected: RejectedTool[];
  error?: string;
  connectMs?: number;
  attempts: number;
  generation: number;
  listing: Promise<void>;
  refreshTimer?: NodeJS.Timeout;
  reconnectTimer?: NodeJS.Timeout;
  /** Aborts the connect attempt in progress. */
  connecting?: AbortController;
  /** When the current connection became ready (ms since the epoch). */
  readyAt?: number;
  /** The FIFO limit of `maxConcurrency`, when the server has one. */
  queue?: CallQueue | undefined;
}

function sameTools(a: readonly ToolDefinition[], b: readonly ToolDefinition[]): boolean {
  return a.length === b.length && a.every((tool, position) => tool === b[position]);
}

function rejectedName(error: unknown): string {
  const match = /Tool '([^']*)'/.exec(describeError(error));
  return match?.[1] ?? '<unnamed>';
}

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
  const pinnedServers = new Set(config.pins?.servers ?? []);
  const pinnedTool = createPinMatcher(config.pins?.tools ?? []);
  const limits: UpstreamLimits = { ...DEFAULT_UPSTREAM_LIMITS, ...config.limits };
  const review = createToolReviewGate(config.review);

  const maxCallTimeMs = options.maxCallTimeMs ?? DEFAULT_MAX_CALL_TIME_MS;
  const upstreams: Upstream[] = Object.entries(config.mcpServers).map(([name, server]) => ({
    name,
    config: server,
    state: server.disabled ? 'disabled' : 'pending',
    tools: [],
    listed: [],
    fingerprints: new Map(),
    held: [],
    cut: [],
    ignoredPins: [],
    rejected: [],
    attempts: 0,
    generation: 0,
    listing: Promise.resolve(),
    queue: server.maxConcurrency === undefined ? undefined : createCallQueue(server.maxConcurrency),
  }));
  const byName = new Map(upstreams.map((upstream) => [upstream.name, upstream]));

  let named: NamedUpstreamTool[] = [];
  let exposed: ToolDefinition[] = [];
  // The exposed object of each upstream definition, reused while nothing about it changes.
  const exposedOf = new WeakMap<ToolDefinition, ToolDefinition>();
  let index = new Map<string, { entry: NamedUpstreamTool; tool: ToolDefinition }>();
  const toolsListeners = new Set<(tools: ToolDefinition[]) => void>();
  const progressListeners = new Set<(event: UpstreamProgressEvent) => void>();
  if (options.onProgress) progressListeners.add(options.onProgress);
  let started: Promise<UpstreamServerStatus[]> | undefined;
  let closed = false;

  const statusOf = (upstream: Upstream): UpstreamServerStatus => {
    const status: UpstreamServerStatus = {
      name: upstream.name,
      state: upstream.state,
      toolCount: named.filter((entry) => entry.server === upstream.name).length,
      rejectedTools: [...upstream.rejected],
      cutTools: [...upstream.cut],
      ignoredPins: [...upstream.ignoredPins],
      heldTools: [...upstream.held],
      reconnectAttempts: upstream.attempts,
    };
    if (upstream.transport !== undefined) status.transport = upstream.transport;
    if (upstream.error !== undefined) status.error = upstream.error;
    if (upstream.connectMs !== undefined) status.connectMs = upstream.connectMs;
    return status;
  };

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

  const isPinned = (server: string, tool: ToolDefinition, name: string) =>
    pinnedServers.has(server) || pinnedTool(name, { server, name: tool.name });

  // Re-derives the exposed list from the live servers; tells listeners when it changed.
  const recompute = () => {
    const entries = upstreams
      .filter((upstream) => LISTED_STATES.has(upstream.state))
      .flatMap((upstream) => upstream.tools.map((tool) => ({ server: upstream.name, tool })));
    named = resolveToolNames(entries);
    index = new Map();
    const next = named.map((entry) => {
      const pinned =
        entry.tool.alwaysLoad === true || isPinned(entry.server, entry.tool, entry.name);
      let tool = exposedOf.get(entry.tool);
      if (tool === undefined || tool.name !== entry.name || (tool.alwaysLoad === true) !== pinned) {
        // The origin is the pool's to say, from the config's server name: policies
        // decide on it, whatever the exposed name becomes.
        tool = {
          ...entry.tool,
          name: entry.name,
          origin: { server: entry.server, name: entry.tool.name },
        };
        if (pinned) tool.alwaysLoad = true;
        exposedOf.set(entry.tool, tool);
      }
      index.set(entry.name, { entry, tool });
      return tool;
    });
    if (sameTools(exposed, next)) return;
    exposed = next;
    if (closed) return;
    for (const listener of toolsListeners) {
      try {
        listener(exposed.slice());
      } catch {
        // A listener must not take the pool down.
      }
    }
  };

  const listAll = async (upstream: Upstream, client: Client, signal?: AbortSignal) => {
    const raws: unknown[] = [];
    const cursors = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page += 1) {
      const result = await client.request(
        { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
        ListToolsPageSchema,
        { timeout: connectTimeoutMs, ...(signal ? { signal } : {}) },
      );
      raws.push(...result.tools);
      cursor = result.nextCursor;
      if (cursor === undefined || cursors.has(cursor)) break;
      cursors.add(cursor);
    }
    const converted = raws.map((raw) =>
      typeof raw === 'object' && raw !== null
        ? fromMcpTool(raw as McpTool, { server: upstream.name })
        : raw,
    );
    const { tools: valid, errors } = validateToolDefinitions(converted);
    // Upstream metadata is untrusted: limits first (nothing below meets an unbounded
    // nesting), then only trusted servers keep their own pins.
    const screened = screenUpstreamTools(valid, {
      trusted: upstream.config.trusted === true,
      limits,
    });
    // Keep the objects of unchanged tools: downstream work (token estimates, ranker
    // analysis) is memoized per tool object.
    const previous = new Map(upstream.listed.map((tool) => [tool.name, tool]));
    upstream.listed = screened.tools.map((tool) => {
      const before = previous.get(tool.name);
      return before !== undefined && JSON.stringify(before) === JSON.stringify(tool)
        ? before
        : tool;
    });
    upstream.fingerprints = screened.fingerprints;
    upstream.cut = screened.cut;
    upstream.ignoredPins = screened.ignoredPins;
    upstream.rejected = [
      ...errors.map((error) => ({ name: rejectedName(error), error: error.message })),
      ...screened.rejected,
    ];
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
        const before = exposed;
        recompute();
        if (before !== exposed) emit('tools_changed', upstream);
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

  const callTool: UpstreamPool['callTool'] = async (name, args, callOptions = {}) => {
    const entry = index.get(name)?.entry;
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
    tools: () => exposed.slice(),
    lookup(name) {
      const found = index.get(name);
      if (found === undefined) return undefined;
      return {
        name,
        server: found.entry.server,
        upstreamName: found.entry.tool.name,
        tool: found.tool,
      };
    },
    servers: () => upstreams.map(statusOf),
    status: () => upstreams.map(statusOf),
    fingerprints: () =>
      upstreams
        .filter((upstream) => upstream.state === 'ready' || upstream.state === 'reconnecting')
        .flatMap((upstream) =>
          [...upstream.fingerprints].map(([name, fingerprint]) => ({
            server: upstream.name,
            name,
            fingerprint,
          })),
        ),
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
