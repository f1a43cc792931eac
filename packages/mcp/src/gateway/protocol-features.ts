import type { ServerCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { type SessionScope, scopeTools } from '@tool-search/toolsets';
import type { RelayRecord } from '../upstream/features/relay.js';
import type { FeatureEvent, UpstreamFeatures } from '../upstream/features/upstream-features.js';
import { handleCompletions } from './completions.js';
import {
  createFeatureSession,
  type FeatureRecord,
  type FeatureSession,
} from './feature-session.js';
import { admitsLog, handleLogging } from './logging.js';
import { handlePrompts } from './prompts.js';
import { logLevelOf } from './relay.js';
import { handleResources } from './resources.js';
import type { GatewaySessionContext, SessionState } from './session-state.js';
import { subscriptionsOf } from './subscriptions.js';

/** The pool's features, when its pool has them (a plain tool source has none). */
export function featuresOf(context: GatewaySessionContext): UpstreamFeatures | undefined {
  return (context.options.pool as { features?: UpstreamFeatures }).features;
}

/**
 * What a new session declares beyond tools: the capabilities of the connected servers in
 * its scope (`resources` with `subscribe` and `listChanged`, `prompts`, `completions`,
 * `logging`); `completions` also where a server offers prompts or resources. Before the first connect round is over, what the servers offer is not known
 * yet: every one is declared, and a request finds what the servers turn out to offer.
 *
 * @throws nothing
 */
export function featureCapabilities(
  context: GatewaySessionContext,
  scope: SessionScope,
): ServerCapabilities {
  const hub = featuresOf(context);
  if (hub === undefined) return {};
  const servers = context.settle.open
    ? hub.servers().filter((features) => {
        const probe = {
          name: '\u0000scope-probe',
          inputSchema: { type: 'object' as const },
          source: 'mcp' as const,
          toolset: `mcp-${features.server}`,
        };
        return (
          scopeTools([probe], scope, context.registry).length === 1 ||
          context.options.pool
            .tools()
            .some(
              (tool) =>
                tool.toolset === probe.toolset &&
                scopeTools([tool], scope, context.registry).length === 1,
            )
        );
      })
    : undefined;
  const offers = (key: string) =>
    servers === undefined || servers.some((features) => features.capabilities[key] !== undefined);
  const subscribes =
    servers === undefined ||
    servers.some(
      (features) =>
        (features.capabilities['resources'] as { subscribe?: boolean } | undefined)?.subscribe ===
        true,
    );
  return {
    ...(offers('resources')
      ? { resources: { listChanged: true, ...(subscribes ? { subscribe: true } : {}) } }
      : {}),
    ...(offers('prompts') ? { prompts: { listChanged: true } } : {}),
    // The gateway completes the arguments of every prompt and template it carries (with no
    // values where the owner offers no completions), as a server with prompts may.
    ...(offers('completions') || offers('prompts') || offers('resources')
      ? { completions: {} }
      : {}),
    ...(offers('logging') ? { logging: {} } : {}),
  };
}

/**
 * Records one relayed (or refused) server request of a session in its activity feed and
 * audit trail.
 *
 * @throws nothing
 */
export function recordRelayed(session: Pick<FeatureSession, 'record'>, record: RelayRecord): void {
  session.record({
    kind: RELAYED_KIND[record.method],
    name: record.method,
    server: record.server,
    status: record.status === 'ok' ? 'ok' : record.status === 'denied' ? 'denied' : 'error',
    ...(record.detail === undefined ? {} : { detail: record.detail }),
    durationMs: 0,
  });
}

const RELAYED_KIND = {
  'sampling/createMessage': 'sampling',
  'elicitation/create': 'elicitation',
  'roots/list': 'roots',
} as const satisfies Record<string, FeatureRecord['kind']>;

/**
 * Serves the session's declared features and follows the pool's events for it.
 *
 * @returns what ends it (the session closed)
 * @throws nothing
 */
export function installProtocolFeatures(state: SessionState): () => void {
  const hub = featuresOf(state.context);
  if (hub === undefined) return () => {};
  // The same answer as the session's server was made with, a moment ago in this turn.
  const declared = featureCapabilities(state.context, state.scope);
  const session = createFeatureSession(state, hub);
  const subscriptions = subscriptionsOf(hub);
  const level = logLevelOf(state);
  if (declared.resources !== undefined) handleResources(session, subscriptions);
  if (declared.prompts !== undefined) handlePrompts(session);
  if (declared.completions !== undefined) handleCompletions(session);
  if (declared.logging !== undefined) handleLogging(session, level);
  const send = (notification: { method: string; params?: Record<string, unknown> }) => {
    if (!state.initialized || state.closed) return;
    void state.server.notification(notification as never).catch(() => {});
  };
  const onEvent = (event: FeatureEvent) => {
    if (event.kind === 'relayed') {
      if (event.record.sessionId === state.id) recordRelayed(session, event.record);
      return;
    }
    if (event.kind === 'resource_updated') {
      if (subscriptions.subscribed(state.id, event.server, event.uri)) {
        send({ method: 'notifications/resources/updated', params: { uri: event.uri } });
      }
      return;
    }
    if (!session.inScope(event.server)) return;
    if (event.kind === 'resources_changed' && declared.resources !== undefined) {
      send({ method: 'notifications/resources/list_changed' });
    } else if (event.kind === 'prompts_changed' && declared.prompts !== undefined) {
      send({ method: 'notifications/prompts/list_changed' });
    } else if (
      event.kind === 'log' &&
      declared.logging !== undefined &&
      admitsLog(level, event.params, false)
    ) {
      send({ method: 'notifications/message', params: event.params });
    }
  };
  const stop = hub.onEvent(onEvent);
  return () => {
    stop();
    subscriptions.drop(state.id);
  };
}
