import { ToolSearchError } from '@tool-search/core';
import { connectUpstream, type UpstreamConnection } from './connect.js';
import { describeConnectError, eraKey } from './era.js';
import { createFailedServerRetry } from './failed-retry.js';
import { featureClientOf } from './features/feature-client.js';
import { armTtl, keepFresh, stopFresh } from './listen.js';
import {
  emit,
  listAll,
  onReviewChanged,
  type PoolState,
  recompute,
  scheduleRefresh,
  statusOf,
} from './pool-state.js';
import type { UpstreamServerStatus } from './pool-types.js';
import { watchRequests } from './request-watch.js';
import type { Upstream } from './upstream-state.js';

// A connection that lived this long resets the backoff; a server that keeps crashing
// soon after it starts climbs the backoff and is given up after `maxAttempts`.
const STABLE_CONNECTION_MS = 30_000;

/** Loads the review, then connects every server once; the same promise on every call. */
export function startPool(state: PoolState): Promise<UpstreamServerStatus[]> {
  if (state.closed) return Promise.resolve(state.upstreams.map((u) => statusOf(state, u)));
  state.started ??= state.review.load().then(() => {
    if (!state.closed) state.review.watch(() => onReviewChanged(state));
    return Promise.all(state.upstreams.map((upstream) => startOne(state, upstream))).then(() =>
      state.upstreams.map((upstream) => statusOf(state, upstream)),
    );
  });
  return state.started;
}

/** Stops timers, aborts connects and closes every connection; idempotent. */
export async function closePool(state: PoolState): Promise<void> {
  if (state.closed) return;
  state.closed = true;
  state.review.close();
  state.retry?.close();
  await Promise.allSettled(
    state.upstreams.map(async (upstream) => {
      if (upstream.reconnectTimer) clearTimeout(upstream.reconnectTimer);
      if (upstream.refreshTimer) clearTimeout(upstream.refreshTimer);
      stopFresh(upstream);
      upstream.connecting?.abort(new Error('the pool is closing'));
      upstream.generation += 1;
      const connection = upstream.connection;
      upstream.connection = undefined;
      if (upstream.state !== 'disabled') upstream.state = 'closed';
      await connection?.client.close();
    }),
  );
}

/** Sets up the retry of failed servers, when reconnecting is on. */
export function attachFailedRetry(state: PoolState): void {
  if (state.reconnect === undefined) return;
  state.retry = createFailedServerRetry({
    intervalMs: state.reconnect.retryFailedMs > 0 ? state.reconnect.retryFailedMs : 2 ** 31 - 1,
    attempt: (name) => retryFailed(state, name),
  });
}

/** Connects a `pending` server once; a failure marks it `failed` (and retried later). */
export async function startOne(state: PoolState, upstream: Upstream): Promise<void> {
  if (upstream.state !== 'pending') return;
  upstream.state = 'connecting';
  emit(state, 'connecting', upstream);
  const ok = await connect(state, upstream);
  if (!ok && !state.closed && upstream.state === 'connecting') {
    upstream.state = 'failed';
    emit(state, 'failed', upstream);
    state.retry?.failed(upstream.name);
  }
}

/** One connect-and-list attempt; true when the server is ready. */
export async function connect(state: PoolState, upstream: Upstream): Promise<boolean> {
  const generation = ++upstream.generation;
  const began = performance.now();
  const controller = new AbortController();
  upstream.connecting = controller;
  const timer = setTimeout(
    () => controller.abort(new Error('connect timeout')),
    state.connectTimeoutMs,
  );
  let connection: UpstreamConnection | undefined;
  try {
    connection = await openConnection(state, upstream, generation, controller.signal);
    await listAll(state, upstream, connection.client, controller.signal);
    await state.features.list(upstream.name, controller.signal);
    if (state.closed || upstream.generation !== generation) {
      await connection.client.close().catch(() => {});
      return false;
    }
    markReady(state, upstream, connection, began);
    return true;
  } catch (error) {
    upstream.signInRequired =
      ToolSearchError.isInstance(error) && error.code === 'upstream_sign_in_required'
        ? error.message
        : undefined;
    upstream.error = controller.signal.aborted
      ? `did not start, connect and list its tools within ${state.connectTimeoutMs} ms`
      : describeConnectError(error);
    if (connection) {
      // An era that cannot even list tools may be stale or wrong (the server changed era,
      // or its probe answer was not to be trusted): the next attempt probes again.
      state.eras.delete(eraKey(upstream.name, upstream.config));
      await connection.client.close().catch(() => {});
    }
    return false;
  } finally {
    clearTimeout(timer);
    if (upstream.connecting === controller) delete upstream.connecting;
  }
}

function openConnection(
  state: PoolState,
  upstream: Upstream,
  generation: number,
  signal: AbortSignal,
): Promise<UpstreamConnection> {
  const onStderr = state.options.onStderr;
  const { authProvider } = state.options;
  const config = upstream.config;
  const auth = 'url' in config ? config.auth : undefined;
  return connectUpstream(config, {
    // A server that needs sign-in gets its OAuth client at every connect.
    authProvider:
      authProvider && auth && 'url' in config
        ? () => authProvider(upstream.name, { url: config.url, auth })
        : undefined,
    clientInfo: state.clientInfo,
    // What the gateway can relay, and what the pool's caller answers (its own wins).
    capabilities: { ...state.features.clientCapabilities, ...state.options.clientCapabilities },
    eras: { cache: state.eras, key: eraKey(upstream.name, upstream.config) },
    timeoutMs: state.connectTimeoutMs,
    signal,
    onStderr: onStderr && ((text) => onStderr(upstream.name, text)),
    prepare: (client) => {
      state.features.attach(upstream.name, featureClientOf(client), {
        sampling: upstream.config.sampling,
        held: () => upstream.held.length > 0,
      });
      client.setNotificationHandler('notifications/tools/list_changed', async () => {
        scheduleRefresh(state, upstream, generation);
      });
      client.onclose = () => onClosed(state, upstream, generation);
    },
  });
}

function markReady(
  state: PoolState,
  upstream: Upstream,
  connection: UpstreamConnection,
  began: number,
): void {
  upstream.connection = connection;
  const transport = connection.client.transport;
  if (transport !== undefined) state.watches.set(connection.client, watchRequests(transport));
  upstream.transport = connection.kind;
  upstream.era = connection.era;
  upstream.connectMs = Math.round(performance.now() - began);
  upstream.state = 'ready';
  upstream.readyAt = Date.now();
  delete upstream.error;
  delete upstream.signInRequired;
  recompute(state);
  emit(state, 'ready', upstream);
  upstream.onListed = () => armTtl(state, upstream);
  keepFresh(state, upstream, connection.client);
}

function scheduleReconnect(state: PoolState, upstream: Upstream): void {
  const reconnect = state.reconnect;
  if (state.closed || reconnect === undefined) return;
  if (upstream.attempts >= reconnect.maxAttempts) {
    upstream.state = 'failed';
    upstream.error = `gave up after ${upstream.attempts} reconnect attempts; last error: ${upstream.error ?? 'unknown'}`;
    recompute(state);
    emit(state, 'failed', upstream);
    state.retry?.failed(upstream.name);
    return;
  }
  upstream.attempts += 1;
  const delay = Math.min(
    reconnect.maxDelayMs,
    reconnect.initialDelayMs * 2 ** (upstream.attempts - 1),
  );
  upstream.state = 'reconnecting';
  emit(state, 'reconnecting', upstream);
  upstream.reconnectTimer = setTimeout(async () => {
    upstream.reconnectTimer = undefined;
    if (state.closed) return;
    const ok = await connect(state, upstream);
    if (!ok && !state.closed) {
      upstream.state = 'reconnecting';
      scheduleReconnect(state, upstream);
    }
  }, delay);
  upstream.reconnectTimer.unref?.();
}

function onClosed(state: PoolState, upstream: Upstream, generation: number): void {
  if (state.closed || upstream.generation !== generation || upstream.state !== 'ready') return;
  const tail = upstream.connection?.stderrTail() ?? '';
  upstream.connection = undefined;
  stopFresh(upstream);
  state.features.detach(upstream.name);
  if (upstream.readyAt !== undefined && Date.now() - upstream.readyAt >= STABLE_CONNECTION_MS) {
    upstream.attempts = 0;
  }
  upstream.error = `the connection closed${tail ? `; stderr: ${tail.split('\n').slice(-3).join(' | ')}` : ''}`;
  if (state.reconnect === undefined) {
    // Nothing will bring it back: its last known tools go with it.
    upstream.state = 'failed';
    upstream.tools = [];
    recompute(state);
    emit(state, 'failed', upstream);
    return;
  }
  upstream.state = 'reconnecting';
  emit(state, 'disconnected', upstream);
  scheduleReconnect(state, upstream);
}

/** One retry of a failed server: `reconnecting` while it runs, so its tools stay listed. */
async function retryFailed(state: PoolState, name: string): Promise<boolean> {
  const upstream = state.byName.get(name);
  if (state.closed || upstream === undefined || upstream.state !== 'failed') return true;
  upstream.state = 'reconnecting';
  emit(state, 'retrying', upstream);
  const ok = await connect(state, upstream);
  if (ok) {
    upstream.attempts = 0;
    return true;
  }
  if (!state.closed && upstream.state === 'reconnecting') {
    upstream.state = 'failed';
    upstream.error = `retry failed: ${upstream.error ?? 'unknown error'}`;
    emit(state, 'failed', upstream);
  }
  return state.closed;
}
