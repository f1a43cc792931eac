import type { Implementation } from '@modelcontextprotocol/client';
import type { ToolDefinition } from '@tool-search/core';
import { describeError, sameTools } from '@tool-search/core/internal';
import {
  DEFAULT_CALL_TIMEOUT_MS,
  DEFAULT_CANCEL_GRACE_MS,
  DEFAULT_MAX_CALL_TIME_MS,
} from './call.js';
import type { UpstreamClient } from './client.js';
import { createEraCache, type EraCache } from './era.js';
import { createExposedTools, type ExposedTools } from './exposed-tools.js';
import { DEFAULT_RETRY_FAILED_MS, type FailedServerRetry } from './failed-retry.js';
import { createUpstreamFeatureHub, type UpstreamFeatureHub } from './features/upstream-features.js';
import { DEFAULT_UPSTREAM_LIMITS, type UpstreamLimits } from './limits.js';
import { listUpstreamTools } from './list-tools.js';
import type {
  ReconnectOptions,
  UpstreamPoolConfig,
  UpstreamPoolOptions,
  UpstreamProgressEvent,
  UpstreamServerStatus,
} from './pool-types.js';
import type { RequestWatch } from './request-watch.js';
import { createToolReviewGate, type ToolReviewGate } from './review.js';
import {
  createUpstream,
  LISTED_STATES,
  signsInPerProfile,
  type Upstream,
  upstreamStatus,
} from './upstream-state.js';

const LIST_CHANGED_DEBOUNCE_MS = 25;
// A flood of notifications does not starve the re-list: one runs at least this often.
const LIST_CHANGED_MAX_WAIT_MS = 1_000;

/** Everything one upstream pool knows: its settings, its servers and its listeners. */
export interface PoolState {
  readonly options: UpstreamPoolOptions;
  readonly connectTimeoutMs: number;
  readonly callTimeoutMs: number;
  readonly maxCallTimeMs: number;
  readonly cancelGraceMs: number;
  /** Backoff for servers that die; `undefined` when reconnecting is off. */
  readonly reconnect: Required<ReconnectOptions> | undefined;
  readonly clientInfo: Implementation;
  readonly limits: UpstreamLimits;
  readonly review: ToolReviewGate;
  readonly watches: WeakMap<UpstreamClient, RequestWatch>;
  /** The era of each origin, decided once by a probe. */
  readonly eras: EraCache;
  readonly upstreams: Upstream[];
  readonly byName: Map<string, Upstream>;
  readonly exposed: ExposedTools;
  readonly toolsListeners: Set<(tools: ToolDefinition[]) => void>;
  readonly progressListeners: Set<(event: UpstreamProgressEvent) => void>;
  /** Resources, prompts, logs and relays of the servers (beyond tools). */
  readonly features: UpstreamFeatureHub;
  /** The periodic and on-demand retry of failed servers (none without reconnecting). */
  retry: FailedServerRetry | undefined;
  started: Promise<UpstreamServerStatus[]> | undefined;
  closed: boolean;
}

/** The state of a pool not yet started: settings resolved against their defaults. */
export function createPoolState(
  config: UpstreamPoolConfig,
  options: UpstreamPoolOptions,
  shared: { eras?: EraCache } = {},
): PoolState {
  const upstreams = Object.entries(config.mcpServers).map(([name, server]) =>
    createUpstream(name, server),
  );
  const limits = { ...DEFAULT_UPSTREAM_LIMITS, ...config.limits };
  const review = createToolReviewGate(config.review, options.sharedReview);
  const state: PoolState = {
    options,
    connectTimeoutMs: options.connectTimeoutMs ?? 30_000,
    callTimeoutMs: options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
    maxCallTimeMs: options.maxCallTimeMs ?? DEFAULT_MAX_CALL_TIME_MS,
    cancelGraceMs: options.cancelGraceMs ?? DEFAULT_CANCEL_GRACE_MS,
    reconnect:
      options.reconnect === false
        ? undefined
        : {
            initialDelayMs: 500,
            maxDelayMs: 30_000,
            maxAttempts: 8,
            retryFailedMs: DEFAULT_RETRY_FAILED_MS,
            ...(typeof options.reconnect === 'object' ? options.reconnect : {}),
          },
    clientInfo: options.clientInfo ?? { name: 'tool-search-gateway', version: '0.0.0' },
    limits,
    review,
    watches: new WeakMap(),
    eras: shared.eras ?? createEraCache(),
    upstreams,
    byName: new Map(upstreams.map((upstream) => [upstream.name, upstream])),
    exposed: createExposedTools(config.pins),
    toolsListeners: new Set(),
    progressListeners: new Set(),
    features: createUpstreamFeatureHub({
      // A server each profile signs in to itself serves no resources or prompts through the
      // pool: they would be read with the operator's sign-in for everyone (its tools'
      // relays still work).
      order: upstreams
        .filter(
          (upstream) => options.authProvider === undefined || !signsInPerProfile(upstream.config),
        )
        .map((upstream) => upstream.name),
      maxDescriptionChars: limits.maxDescriptionChars,
      held: (server, name, fingerprint) => review.held(server, name, fingerprint),
    }),
    retry: undefined,
    started: undefined,
    closed: false,
  };
  if (options.onProgress) state.progressListeners.add(options.onProgress);
  return state;
}

export function statusOf(state: PoolState, upstream: Upstream): UpstreamServerStatus {
  const status = upstreamStatus(upstream, state.exposed.countOf(upstream.name));
  if (state.options.authProvider !== undefined && signsInPerProfile(upstream.config)) {
    status.perProfile = true;
  }
  return status;
}

export function addProgressListener(
  state: PoolState,
  listener: (event: UpstreamProgressEvent) => void,
): () => boolean {
  state.progressListeners.add(listener);
  return () => state.progressListeners.delete(listener);
}

export function emit(
  state: PoolState,
  kind: UpstreamProgressEvent['kind'],
  upstream: Upstream,
): void {
  const event = { kind, server: upstream.name, status: statusOf(state, upstream) };
  for (const listener of state.progressListeners) {
    try {
      listener(event);
    } catch {
      // A display must not take the pool down.
    }
  }
}

/** Re-derives the exposed list from the live servers; tells listeners when it changed. */
export function recompute(state: PoolState): boolean {
  const entries = state.upstreams
    .filter((upstream) => LISTED_STATES.has(upstream.state))
    .flatMap((upstream) => upstream.tools.map((tool) => ({ server: upstream.name, tool })));
  if (!state.exposed.update(entries)) return false;
  if (state.closed) return true;
  const tools = state.exposed.list();
  for (const listener of state.toolsListeners) {
    try {
      listener(tools.slice());
    } catch {
      // A listener must not take the pool down.
    }
  }
  return true;
}

/** Lists a server's tools page by page and applies the review to them. */
export async function listAll(
  state: PoolState,
  upstream: Upstream,
  client: UpstreamClient,
  signal?: AbortSignal,
): Promise<void> {
  const listed = await listUpstreamTools(client, {
    server: upstream.name,
    trusted: upstream.config.trusted === true,
    limits: state.limits,
    timeoutMs: state.connectTimeoutMs,
    signal,
    previous: upstream.listed,
  });
  upstream.listed = listed.listed;
  upstream.fingerprints = listed.fingerprints;
  upstream.cut = listed.cut;
  upstream.ignoredPins = listed.ignoredPins;
  upstream.rejected = listed.rejected;
  upstream.headerTools = listed.headerTools;
  upstream.listTtlMs = listed.ttlMs;
  upstream.listScope = listed.cacheScope;
  applyReview(state, upstream);
}

/** Held tools stay in `listed` but out of `tools`: not listed, not callable. */
function applyReview(state: PoolState, upstream: Upstream): void {
  upstream.held = [];
  upstream.tools = upstream.listed.filter((tool) => {
    const held = state.review.held(upstream.name, tool.name, upstream.fingerprints.get(tool.name)!);
    if (held !== undefined) upstream.held.push({ ...held, tool });
    return held === undefined;
  });
}

/** The review file changed: re-applies it to every live server. */
export function onReviewChanged(state: PoolState): void {
  if (state.closed) return;
  const live = state.upstreams.filter(
    (upstream) => upstream.state === 'ready' || upstream.state === 'reconnecting',
  );
  const before = new Map(live.map((upstream) => [upstream, upstream.tools]));
  for (const upstream of live) applyReview(state, upstream);
  recompute(state);
  for (const upstream of live) {
    if (!sameTools(before.get(upstream) ?? [], upstream.tools)) {
      emit(state, 'tools_changed', upstream);
    }
  }
}

/** A `tools/list_changed` arrived: re-lists the server after a short debounce. */
export function scheduleRefresh(state: PoolState, upstream: Upstream, generation: number): void {
  const now = Date.now();
  if (upstream.refreshTimer) {
    // Past the longest wait, the pending re-list keeps its time: no more postponing.
    if (now - (upstream.refreshSince ?? now) >= LIST_CHANGED_MAX_WAIT_MS) return;
    clearTimeout(upstream.refreshTimer);
  } else {
    upstream.refreshSince = now;
  }
  upstream.refreshTimer = setTimeout(() => {
    upstream.refreshTimer = undefined;
    upstream.refreshSince = undefined;
    // One re-list waiting behind the running one is enough: it will see every change.
    if (upstream.refreshQueued) return;
    upstream.refreshQueued = true;
    upstream.listing = upstream.listing.then(() => {
      upstream.refreshQueued = false;
      return refresh(state, upstream, generation);
    });
  }, LIST_CHANGED_DEBOUNCE_MS);
}

async function refresh(state: PoolState, upstream: Upstream, generation: number): Promise<void> {
  const client = upstream.connection?.client;
  if (client === undefined || upstream.generation !== generation || upstream.state !== 'ready') {
    return;
  }
  try {
    await listAll(state, upstream, client);
  } catch (error) {
    // The close handler deals with a dead server; a failed re-list keeps the last list.
    upstream.error = `re-listing tools failed: ${describeError(error)}`;
    return;
  }
  if (upstream.generation !== generation) return;
  upstream.onListed?.();
  if (recompute(state)) emit(state, 'tools_changed', upstream);
}
