import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { UpstreamFeatures } from '../upstream/features/upstream-features.js';

/** The most resources one session may be subscribed to at once. */
export const MAX_SUBSCRIPTIONS_PER_SESSION = 256;

/**
 * The resource subscriptions of every session of a gateway (one per pool): an upstream is
 * sent `resources/subscribe` once for a URI however many sessions subscribe, and
 * `resources/unsubscribe` when the last one leaves.
 */
export interface SubscriptionRegistry {
  /** @throws McpError when the session holds too many, or the upstream refuses */
  subscribe(sessionId: string, server: string, uri: string): Promise<void>;
  unsubscribe(sessionId: string, uri: string): Promise<void>;
  /** Whether a session is subscribed to a server's URI. */
  subscribed(sessionId: string, server: string, uri: string): boolean;
  /** A session ended: its subscriptions go. */
  drop(sessionId: string): void;
}

const registries = new WeakMap<UpstreamFeatures, SubscriptionRegistry>();

/**
 * The registry of a pool's features (one for every session of it).
 *
 * @throws nothing
 */
export function subscriptionsOf(hub: UpstreamFeatures): SubscriptionRegistry {
  let registry = registries.get(hub);
  if (registry === undefined) {
    registry = createSubscriptionRegistry(hub);
    registries.set(hub, registry);
  }
  return registry;
}

function createSubscriptionRegistry(hub: UpstreamFeatures): SubscriptionRegistry {
  // `server\nuri` -> sessions; session -> uri -> server
  const sessionsOf = new Map<string, Set<string>>();
  const bySession = new Map<string, Map<string, string>>();
  const key = (server: string, uri: string) => `${server}\n${uri}`;
  // A server that reconnects has forgotten its subscriptions: they are sent again.
  hub.onEvent((event) => {
    if (event.kind !== 'connected') return;
    for (const subscribed of sessionsOf.keys()) {
      const at = subscribed.indexOf('\n');
      const [server, uri] = [subscribed.slice(0, at), subscribed.slice(at + 1)];
      if (server === event.server)
        void hub.request(server, 'resources/subscribe', { uri }).catch(() => {});
    }
  });
  const leave = async (sessionId: string, uri: string) => {
    const mine = bySession.get(sessionId);
    const server = mine?.get(uri);
    if (mine === undefined || server === undefined) return;
    mine.delete(uri);
    if (mine.size === 0) bySession.delete(sessionId);
    const sessions = sessionsOf.get(key(server, uri));
    sessions?.delete(sessionId);
    if (sessions !== undefined && sessions.size === 0) {
      sessionsOf.delete(key(server, uri));
      await hub.request(server, 'resources/unsubscribe', { uri }).catch(() => {});
    }
  };
  return {
    async subscribe(sessionId, server, uri) {
      const mine = bySession.get(sessionId) ?? new Map<string, string>();
      if (mine.get(uri) === server) return;
      if (mine.size >= MAX_SUBSCRIPTIONS_PER_SESSION) {
        throw new McpError(
          ErrorCode.InvalidRequest,
          `This session holds ${MAX_SUBSCRIPTIONS_PER_SESSION} resource subscriptions, the most the gateway keeps for one session: unsubscribe from some first.`,
        );
      }
      const sessions = sessionsOf.get(key(server, uri));
      if (sessions === undefined) {
        await hub.request(server, 'resources/subscribe', { uri });
      }
      const now = sessionsOf.get(key(server, uri)) ?? new Set<string>();
      now.add(sessionId);
      sessionsOf.set(key(server, uri), now);
      mine.set(uri, server);
      bySession.set(sessionId, mine);
    },
    unsubscribe: leave,
    subscribed: (sessionId, server, uri) =>
      sessionsOf.get(key(server, uri))?.has(sessionId) ?? false,
    drop(sessionId) {
      for (const uri of [...(bySession.get(sessionId)?.keys() ?? [])]) void leave(sessionId, uri);
    },
  };
}
