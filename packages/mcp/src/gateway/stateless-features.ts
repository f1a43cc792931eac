import { randomUUID } from 'node:crypto';
import type { JsonObject } from '../upstream/features/feature-client.js';
import type { CallRelay } from '../upstream/features/relay.js';
import type { UpstreamFeatures } from '../upstream/features/upstream-features.js';
import { completeRef } from './completions.js';
import { createFeatureSession, type FeatureSession } from './feature-session.js';
import { admitsLog } from './logging.js';
import { getPrompt, listPrompts } from './prompts.js';
import { featureCapabilities } from './protocol-features.js';
import { listResources, listResourceTemplates, ownerOfUri, readResource } from './resources.js';
import type { StatelessInput } from './session-call.js';
import type { SessionState } from './session-state.js';
import type { StatelessRequestContext } from './stateless-relay.js';
import { MAX_SUBSCRIPTIONS_PER_SESSION, subscriptionsOf } from './subscriptions.js';

/** What a stateless `subscriptions/listen` stream holds: the URIs it may hear, and its end. */
export interface StatelessListen {
  /** The URIs of the request that are in the credential's scope (the others are left out). */
  readonly uris: string[];
  /**
   * Whether the stream may hear a change: a list change of a server in the credential's
   * scope; an update of a URI it subscribed to at that server.
   */
  hears(change: {
    kind: 'resources_list_changed' | 'prompts_list_changed' | 'resource_updated';
    server: string;
    uri?: string;
  }): boolean;
  /** The stream closed: its upstream subscriptions go. */
  close(): void;
}

/**
 * A credential's resources, prompts and completions on the stateless (2026-07-28) leg:
 * the same code, scope, guardrails, audit and activity as a 2025 session of its profile.
 * Every method waits for the upstreams to settle; none keeps state between requests
 * (cursors are offsets into lists made in the config's order, so any replica answers the
 * next page).
 */
export interface GatewayStatelessFeatures {
  /**
   * What the servers in the credential's scope offer beyond tools (`resources` with
   * `subscribe` and `listChanged`, `prompts`, `completions`, `logging`).
   *
   * @throws nothing
   */
  capabilities(): Promise<Record<string, Record<string, unknown>>>;
  /** `private` when the lists depend on the caller's profile (the config has profiles). */
  readonly cacheScope: 'public' | 'private';
  /** @throws McpError InvalidParams for a cursor the gateway did not give */
  listResources(cursor?: unknown): Promise<JsonObject>;
  /** @throws McpError InvalidParams for a cursor the gateway did not give */
  listResourceTemplates(cursor?: unknown): Promise<JsonObject>;
  /**
   * Reads a resource from the server that owns its URI in scope. With the request's
   * `context`, the server's `input_required` reaches the client as a tool call's does (the
   * result is then `{ resultType: 'input_required', ... }`).
   *
   * @throws McpError `-32002` for a URI with no owner in scope (unknown, out of scope or
   * denied alike); the upstream's error
   */
  readResource(
    params: JsonObject,
    signal?: AbortSignal,
    context?: StatelessRequestContext,
  ): Promise<JsonObject>;
  /** @throws McpError InvalidParams for a cursor the gateway did not give */
  listPrompts(cursor?: unknown): Promise<JsonObject>;
  /**
   * Gets a prompt by its exposed name; with `context`, its server's `input_required` is
   * relayed as {@link readResource}'s is.
   *
   * @throws McpError InvalidParams for a prompt not in scope; the upstream's error
   */
  getPrompt(
    params: JsonObject,
    signal?: AbortSignal,
    context?: StatelessRequestContext,
  ): Promise<JsonObject>;
  /**
   * Completes an argument of a prompt or resource template, routed by its ref.
   *
   * @throws McpError InvalidParams / `-32002` for a ref not in scope; the upstream's error
   */
  complete(params: JsonObject, signal?: AbortSignal): Promise<JsonObject>;
  /**
   * Opens the upstream side of a listen stream: each URI in scope is subscribed at its
   * owner (once per URI however many streams name it), at most
   * `MAX_SUBSCRIPTIONS_PER_SESSION` a stream.
   *
   * @throws nothing (a URI the upstream refuses is left out)
   */
  listen(uris: readonly string[]): Promise<StatelessListen>;
}

/**
 * The stateless features of one credential, or none when the pool has no features hub.
 *
 * @param current - the credential's state with its scope made from the pool as it is now
 * @param settled - resolves once the upstreams settled
 * @throws nothing
 */
export function createStatelessFeatures(
  hub: UpstreamFeatures | undefined,
  current: () => SessionState,
  options: {
    settled: () => Promise<void>;
    cacheScope: 'public' | 'private';
    /** Runs a request with the relay of its upstream's questions (see `relayRequest`). */
    relay?: (
      method: string,
      context: StatelessRequestContext,
      run: (input: StatelessInput) => Promise<JsonObject>,
    ) => Promise<JsonObject>;
  },
): GatewayStatelessFeatures | undefined {
  if (hub === undefined) return undefined;
  let session: FeatureSession | undefined;
  const ready = async (): Promise<FeatureSession> => {
    await options.settled();
    const state = current();
    if (session === undefined || session.state !== state)
      session = createFeatureSession(state, hub);
    return session;
  };
  return {
    cacheScope: options.cacheScope,
    async capabilities() {
      const state = (await ready()).state;
      return featureCapabilities(state.context, state.scope) as Record<
        string,
        Record<string, unknown>
      >;
    },
    listResources: async (cursor) => listResources(await ready(), cursor),
    listResourceTemplates: async (cursor) => listResourceTemplates(await ready(), cursor),
    readResource: async (params, signal, context) => {
      const session = await ready();
      if (context === undefined || options.relay === undefined) {
        return readResource(session, params, signal);
      }
      return options.relay('resources/read', context, (input) =>
        readResource(session, params, signal, input),
      );
    },
    listPrompts: async (cursor) => listPrompts(await ready(), cursor),
    getPrompt: async (params, signal, context) => {
      const session = await ready();
      if (context === undefined || options.relay === undefined) {
        return getPrompt(session, params, signal);
      }
      return options.relay('prompts/get', context, (input) =>
        getPrompt(session, params, signal, input),
      );
    },
    complete: async (params, signal) => completeRef(await ready(), params, signal),
    async listen(uris) {
      const features = await ready();
      const registry = subscriptionsOf(hub);
      const id = `${features.state.id}\u0000listen:${randomUUID()}`;
      const held: string[] = [];
      for (const uri of new Set(uris)) {
        const owner = ownerOfUri(features, uri);
        if (owner === undefined) continue;
        try {
          await registry.subscribe(id, owner, uri);
          held.push(uri);
          if (held.length >= MAX_SUBSCRIPTIONS_PER_SESSION) break;
        } catch {
          // Past the cap, or refused upstream: this URI is not acknowledged.
        }
      }
      let closed = false;
      return {
        uris: held,
        hears: (change) =>
          change.kind === 'resource_updated'
            ? !closed && registry.subscribed(id, change.server, change.uri ?? '')
            : features.inScope(change.server),
        close() {
          if (closed) return;
          closed = true;
          registry.drop(id);
        },
      };
    },
  };
}

/**
 * The relay of one stateless call: what the upstream logs during the call reaches the
 * call's own stream at the request's level (`io.modelcontextprotocol/logLevel`), the
 * server named as logger; nothing without a level. It relays no server request (a
 * stateless client is asked by `input_required`, not mid-call).
 *
 * @throws nothing
 */
export function statelessLogRelay(
  sessionId: string,
  level: string | undefined,
  notify: ((notification: { method: string; params?: JsonObject }) => Promise<void>) | undefined,
): CallRelay {
  const threshold = { level };
  return {
    sessionId,
    supports: () => false,
    request: () => Promise.reject(new Error('a stateless call relays no server request')),
    log(params) {
      if (level === undefined || notify === undefined || !admitsLog(threshold, params, true))
        return;
      void notify({ method: 'notifications/message', params }).catch(() => {});
    },
    confirm: async () => false,
  };
}
