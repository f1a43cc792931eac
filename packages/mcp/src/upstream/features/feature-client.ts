import type { StandardSchemaV1 } from '@modelcontextprotocol/client';
import type { UpstreamClient } from '../client.js';

/** A JSON object as it travels: params, results. */
export type JsonObject = Record<string, unknown>;

/** The server-to-client requests the gateway relays to the client of a call. */
export type RelayedMethod = 'sampling/createMessage' | 'elicitation/create' | 'roots/list';

/** The upstream notifications the gateway carries beyond tools. */
export type FeatureNotification =
  | 'notifications/message'
  | 'notifications/resources/updated'
  | 'notifications/resources/list_changed'
  | 'notifications/prompts/list_changed';

/**
 * The little the protocol features need of a connected upstream client, whatever SDK
 * speaks to it: send a request, answer its requests, hear its notifications, read what
 * it declared. The upstream client (MCP SDK v2) is adapted by `featureClientOf`; another
 * client needs only these four.
 */
export interface FeatureClient {
  /**
   * Sends a request; the result comes back as the upstream sent it.
   *
   * @throws the upstream's error (an `McpError`), a timeout or an abort
   */
  request(
    method: string,
    params: JsonObject | undefined,
    options?: {
      signal?: AbortSignal;
      timeoutMs?: number;
      /** An `input_required` answer comes back as it is (2026-07-28), not as an error. */
      allowInputRequired?: boolean;
    },
  ): Promise<JsonObject>;
  /** Answers one kind of upstream request (the last handler set wins). */
  setRequestHandler(
    method: RelayedMethod,
    handler: (params: JsonObject, signal: AbortSignal) => Promise<JsonObject>,
  ): void;
  /** Hears one kind of upstream notification. */
  setNotificationHandler(
    method: FeatureNotification,
    handler: (params: JsonObject) => void | Promise<void>,
  ): void;
  /** What the upstream declared at initialize, once connected. */
  capabilities(): JsonObject | undefined;
}

/**
 * The client capabilities an upstream client declares: what the gateway can relay to
 * the client of a call (each is relayed only where that client declared it too).
 */
export const RELAY_CLIENT_CAPABILITIES = Object.freeze({
  sampling: {},
  elicitation: { form: {}, url: {} },
  roots: {},
});

// Results come back as the upstream sent them (after the SDK's era decoding): any object.
const ANY_RESULT: StandardSchemaV1<JsonObject, JsonObject> = {
  '~standard': {
    version: 1,
    vendor: 'tool-search',
    validate: (value) =>
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? { value: value as JsonObject }
        : { issues: [{ message: 'The result is not an object.' }] },
  },
};

/**
 * Adapts the upstream client (MCP SDK v2), before it connects, so that no early message
 * is missed. The client must have been made with {@link RELAY_CLIENT_CAPABILITIES}
 * declared: the SDK refuses a handler for a request whose capability it does not declare.
 *
 * @param client - the client
 * @returns the adapter
 * @throws nothing
 */
export function featureClientOf(client: UpstreamClient): FeatureClient {
  // A 2026-07-28 server has no resources/subscribe: a URI is subscribed by a listen stream
  // of its own (one per URI; the registry sends each URI once however many ask).
  const listens = new Map<string, { close(): Promise<void> }>();
  return {
    async request(method, params, options = {}) {
      const uri = params?.['uri'];
      if (
        client.getProtocolEra() === 'modern' &&
        typeof uri === 'string' &&
        (method === 'resources/subscribe' || method === 'resources/unsubscribe')
      ) {
        return subscribeModern(client, listens, method, uri);
      }
      return client.request({ method, ...(params === undefined ? {} : { params }) }, ANY_RESULT, {
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
        ...(options.allowInputRequired === true ? { allowInputRequired: true } : {}),
      });
    },
    setRequestHandler(method, handler) {
      // One adapter for three result types: the SDK encodes (and checks) each result
      // for the method before it goes out.
      const relay = async (
        request: { params?: unknown },
        ctx: { mcpReq: { signal: AbortSignal } },
      ) =>
        // biome-ignore lint/suspicious/noExplicitAny: the result's type is the method's
        (await handler((request.params ?? {}) as JsonObject, ctx.mcpReq.signal)) as any;
      client.setRequestHandler(method, relay);
    },
    setNotificationHandler(method, handler) {
      client.setNotificationHandler(method, async (notification: { params?: unknown }) => {
        await handler((notification.params ?? {}) as JsonObject);
      });
    },
    capabilities: () => client.getServerCapabilities() as JsonObject | undefined,
  };
}

async function subscribeModern(
  client: UpstreamClient,
  listens: Map<string, { close(): Promise<void> }>,
  method: 'resources/subscribe' | 'resources/unsubscribe',
  uri: string,
): Promise<JsonObject> {
  const held = listens.get(uri);
  if (method === 'resources/unsubscribe') {
    listens.delete(uri);
    await held?.close().catch(() => {});
    return {};
  }
  if (held !== undefined) return {};
  const subscription = await client.listen({ resourceSubscriptions: [uri] });
  if (subscription.honoredFilter.resourceSubscriptions?.includes(uri) !== true) {
    await subscription.close().catch(() => {});
    throw new Error(`The server does not honour a subscription to ${uri}.`);
  }
  listens.set(uri, subscription);
  void subscription.closed.then(() => {
    if (listens.get(uri) === subscription) listens.delete(uri);
  });
  return {};
}
