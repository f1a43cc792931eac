// What an operator does to the servers of a running pool: restart one (whatever its
// state), and apply a new `mcpServers` (servers added, removed, changed) while the others
// serve on. Sessions see the change as any tools/list_changed.
import { isDeepStrictEqual } from 'node:util';
import { createCallQueue } from './call-queue.js';
import type { UpstreamServerInput } from './connect.js';
import { connect, startOne } from './pool-lifecycle.js';
import { emit, type PoolState, recompute } from './pool-state.js';
import type { PoolReloadOptions, PoolReloadReport, RestartOutcome } from './pool-types.js';
import { createUpstream, type Upstream } from './upstream-state.js';

// Ends a server's connection (and any attempt or timer) without the pool reading it as a crash.
async function disconnect(upstream: Upstream): Promise<void> {
  if (upstream.reconnectTimer) clearTimeout(upstream.reconnectTimer);
  if (upstream.refreshTimer) clearTimeout(upstream.refreshTimer);
  upstream.reconnectTimer = undefined;
  upstream.refreshTimer = undefined;
  upstream.connecting?.abort(new Error('restarted by the operator'));
  // A new generation: the old connection's close is not a crash to reconnect from.
  upstream.generation += 1;
  const connection = upstream.connection;
  upstream.connection = undefined;
  await connection?.client.close().catch(() => {});
}

/**
 * Restarts one server now, whatever its state (a healthy one that misbehaves too): its
 * connection (or process) is closed and a new one connects and lists its tools. Its last
 * known tools stay listed meanwhile (`reconnecting`), so names do not move.
 *
 * @throws nothing
 */
export async function restartUpstream(state: PoolState, name: string): Promise<RestartOutcome> {
  if (state.closed) return 'closed';
  const upstream = state.byName.get(name);
  if (upstream === undefined) return 'unknown';
  if (upstream.state === 'disabled') return 'disabled';
  await disconnect(upstream);
  upstream.state = 'reconnecting';
  upstream.attempts = 0;
  emit(state, 'retrying', upstream);
  const ok = await connect(state, upstream);
  if (ok) return 'restarted';
  if (!state.closed && upstream.state === 'reconnecting') {
    upstream.state = 'failed';
    recompute(state);
    emit(state, 'failed', upstream);
    state.retry?.failed(upstream.name);
  }
  return 'failed';
}

// Two entries are the same server when nothing in them differs (an in-process entry's
// transport function is compared by identity).
function sameEntry(a: UpstreamServerInput, b: UpstreamServerInput): boolean {
  return isDeepStrictEqual(a, b);
}

/**
 * Applies a new `mcpServers` to a running pool: a server no longer there is closed and
 * its tools go; a new one is connected; a changed one is restarted with its new entry.
 * The servers that did not change are not touched. With `options.pins`, the pins are
 * replaced too (absent key: kept).
 *
 * @throws nothing
 */
export async function reloadUpstreams(
  state: PoolState,
  servers: Readonly<Record<string, UpstreamServerInput>>,
  options: PoolReloadOptions = {},
): Promise<PoolReloadReport> {
  const report: PoolReloadReport = { added: [], removed: [], changed: [] };
  if (state.closed) return report;
  if (Object.hasOwn(options, 'pins')) {
    // New pins: the listed tools whose `alwaysLoad` changes are new definitions.
    state.exposed.setPins(options.pins);
    recompute(state);
  }
  for (const upstream of [...state.upstreams]) {
    if (Object.hasOwn(servers, upstream.name)) continue;
    report.removed.push(upstream.name);
    await disconnect(upstream);
    upstream.state = 'closed';
    state.upstreams.splice(state.upstreams.indexOf(upstream), 1);
    state.byName.delete(upstream.name);
  }
  if (report.removed.length > 0) recompute(state);
  const starts: Promise<unknown>[] = [];
  for (const [name, entry] of Object.entries(servers)) {
    const upstream = state.byName.get(name);
    if (upstream === undefined) {
      report.added.push(name);
      const created = createUpstream(name, entry);
      state.upstreams.push(created);
      state.byName.set(name, created);
      if (state.started !== undefined) starts.push(startOne(state, created));
      continue;
    }
    if (sameEntry(upstream.config, entry)) continue;
    report.changed.push(name);
    upstream.config = entry;
    // A `private` list is what the old entry's credential saw: it is not kept for the new one.
    if (upstream.listScope === 'private') {
      upstream.tools = [];
      upstream.listed = [];
      recompute(state);
    }
    upstream.queue =
      entry.maxConcurrency === undefined ? undefined : createCallQueue(entry.maxConcurrency);
    if (entry.disabled) {
      await disconnect(upstream);
      upstream.state = 'disabled';
      upstream.tools = [];
      recompute(state);
    } else if (upstream.state === 'disabled' || upstream.state === 'pending') {
      upstream.state = 'pending';
      if (state.started !== undefined) starts.push(startOne(state, upstream));
    } else {
      starts.push(restartUpstream(state, name));
    }
  }
  await Promise.all(starts);
  return report;
}
