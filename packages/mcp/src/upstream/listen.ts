import { describeError } from '@tool-search/core/internal';
import type { UpstreamClient } from './client.js';
import { type PoolState, scheduleRefresh } from './pool-state.js';
import type { Upstream } from './upstream-state.js';

/** The shortest time between two re-lists that a list's `ttlMs` asks for: 1000 ms. */
export const MIN_TTL_REFRESH_MS = 1_000;
/** The longest `ttlMs` honoured (the SDK's cap too): 24 hours. */
const MAX_TTL_MS = 86_400_000;
/** How often a listen stream that ends is opened again, at most, before the pool stops. */
const MAX_RELISTENS = 5;
const RELISTEN_DELAY_MS = 1_000;

const live = (state: PoolState, upstream: Upstream, generation: number) =>
  !state.closed && upstream.generation === generation && upstream.state === 'ready';

/**
 * Keeps a modern (2026-07-28) upstream's tools fresh: opens `subscriptions/listen` for
 * `tools/list_changed` (and prompts' and resources' `list_changed`) when the server
 * advertises them (its notifications reach the
 * client's registered handler, as a 2025 server's do), opens it again when the server
 * ends it (a few times), and re-lists when the last list's `ttlMs` has passed. A 2025
 * connection is left as it is (its notifications need no stream).
 *
 * @param state - the pool
 * @param upstream - the server, just `ready`
 * @param client - its connected client
 * @returns nothing; failures are recorded in the server's `error`, never thrown
 * @throws nothing
 * @internal
 */
export function keepFresh(state: PoolState, upstream: Upstream, client: UpstreamClient): void {
  const generation = upstream.generation;
  armTtl(state, upstream);
  if (client.getProtocolEra() !== 'modern') return;
  // The changes the server advertises: its tools', and its prompts' and resources' (the
  // pool's feature hub re-lists those on the same notifications as a 2025 server's).
  const capabilities = client.getServerCapabilities();
  const filter = {
    ...(capabilities?.tools?.listChanged === true ? { toolsListChanged: true } : {}),
    ...(capabilities?.prompts?.listChanged === true ? { promptsListChanged: true } : {}),
    ...(capabilities?.resources?.listChanged === true ? { resourcesListChanged: true } : {}),
  };
  if (Object.keys(filter).length === 0) return;
  let opened = 0;
  const open = async () => {
    if (!live(state, upstream, generation)) return;
    opened += 1;
    try {
      const subscription = await client.listen(filter);
      if (!live(state, upstream, generation)) {
        await subscription.close();
        return;
      }
      upstream.listening = { close: () => void subscription.close().catch(() => {}) };
      const how = await subscription.closed;
      if (how === 'local' || !live(state, upstream, generation)) return;
    } catch (error) {
      if (!live(state, upstream, generation)) return;
      upstream.error = `subscriptions/listen failed: ${describeError(error)}`;
    }
    // The stream ended on the server's side: open it again, a few times, and catch up
    // on what may have changed meanwhile.
    if (opened >= MAX_RELISTENS) return;
    scheduleRefresh(state, upstream, generation);
    setTimeout(() => void open(), RELISTEN_DELAY_MS * opened).unref?.();
  };
  void open();
}

/**
 * Re-lists the server when its last list's `ttlMs` has passed (at least
 * {@link MIN_TTL_REFRESH_MS} apart; a `ttlMs` of 0 or none sets no timer: the list is then
 * kept until a change notification or a reconnect).
 *
 * @param state - the pool
 * @param upstream - the server, ready
 * @returns nothing
 * @throws nothing
 * @internal
 */
export function armTtl(state: PoolState, upstream: Upstream): void {
  if (upstream.ttlTimer) clearTimeout(upstream.ttlTimer);
  upstream.ttlTimer = undefined;
  const ttl = upstream.listTtlMs;
  if (ttl === undefined || ttl <= 0) return;
  const generation = upstream.generation;
  upstream.ttlTimer = setTimeout(
    () => {
      upstream.ttlTimer = undefined;
      if (live(state, upstream, generation)) scheduleRefresh(state, upstream, generation);
    },
    Math.min(MAX_TTL_MS, Math.max(MIN_TTL_REFRESH_MS, ttl)),
  );
  upstream.ttlTimer.unref?.();
}

/**
 * Stops what {@link keepFresh} started for a server (its connection is going).
 *
 * @param upstream - the server
 * @returns nothing
 * @throws nothing
 * @internal
 */
export function stopFresh(upstream: Upstream): void {
  if (upstream.ttlTimer) clearTimeout(upstream.ttlTimer);
  upstream.ttlTimer = undefined;
  upstream.listening?.close();
  upstream.listening = undefined;
}
