import { AsyncLocalStorage } from 'node:async_hooks';
import type { ServerEvent, ServerEventBus } from '@modelcontextprotocol/server';
import type { GatewayFeatureChange, StatelessListen } from '@tool-search/mcp';

/**
 * The change-event bus of the modern leg's listen streams, scoped per stream: a change of
 * the upstreams' resources or prompts reaches only the streams whose credential has its
 * server in scope (and an update, only the streams that subscribed to that server's URI),
 * where the SDK's own bus would hand every stream every event. Tool list changes go to
 * every stream, as the tool list depends only on the authorization and the pool.
 */
export interface ScopedEventBus extends ServerEventBus {
  /**
   * Serves a listen request with its scope: the stream the SDK opens while `serve` runs
   * hears what its scope hears.
   *
   * @throws what `serve` throws
   */
  withListen<T>(scope: StatelessListen | undefined, serve: () => Promise<T>): Promise<T>;
  /** Pushes a change of an upstream's resources or prompts to the streams that may hear it. */
  publishChange(change: GatewayFeatureChange): void;
}

/**
 * A scoped bus for one modern leg.
 *
 * @param onerror - reports a listener that threw (the others still hear the event)
 * @throws nothing
 */
export function createScopedEventBus(onerror: (error: Error) => void): ScopedEventBus {
  const current = new AsyncLocalStorage<StatelessListen | undefined>();
  const listeners = new Map<(event: ServerEvent) => void, StatelessListen | undefined>();
  const deliver = (event: ServerEvent, hears: (scope: StatelessListen | undefined) => boolean) => {
    for (const [listener, scope] of [...listeners]) {
      if (!hears(scope)) continue;
      try {
        listener(event);
      } catch (error) {
        onerror(error instanceof Error ? error : new Error(String(error)));
      }
    }
  };
  return {
    publish: (event) => deliver(event, () => true),
    subscribe(listener) {
      // The stream's scope: the listen request being served when the SDK subscribes it.
      listeners.set(listener, current.getStore());
      return () => listeners.delete(listener);
    },
    withListen: (scope, serve) => current.run(scope, serve),
    publishChange(change) {
      const event: ServerEvent =
        change.kind === 'resource_updated'
          ? { kind: 'resource_updated', uri: change.uri }
          : { kind: change.kind };
      deliver(event, (scope) => scope?.hears(change) === true);
    },
  };
}
