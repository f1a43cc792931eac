import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ResultSchema,
} from '@modelcontextprotocol/sdk/types.js';

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
 * it declared. The SDK 1.x client is adapted by `featureClientOf`; another client
 * (the v2 one) needs only these four.
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
    options?: { signal?: AbortSignal; timeoutMs?: number },
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

const REQUESTS = {
  'sampling/createMessage': CreateMessageRequestSchema,
  'elicitation/create': ElicitRequestSchema,
  'roots/list': ListRootsRequestSchema,
} as const;

const NOTIFICATIONS = {
  'notifications/message': LoggingMessageNotificationSchema,
  'notifications/resources/updated': ResourceUpdatedNotificationSchema,
  'notifications/resources/list_changed': ResourceListChangedNotificationSchema,
  'notifications/prompts/list_changed': PromptListChangedNotificationSchema,
} as const;

/**
 * The client capabilities an upstream client declares: what the gateway can relay to
 * the client of a call (each is relayed only where that client declared it too).
 */
export const RELAY_CLIENT_CAPABILITIES = Object.freeze({
  sampling: {},
  elicitation: { form: {}, url: {} },
  roots: {},
});

/**
 * Adapts an SDK 1.x client (before it connects, so that no early message is missed).
 *
 * @param client - the client
 * @returns the adapter
 * @throws nothing
 */
export function featureClientOf(client: Client): FeatureClient {
  return {
    async request(method, params, options = {}) {
      const result = await client.request(
        { method, ...(params === undefined ? {} : { params }) },
        ResultSchema,
        {
          ...(options.signal === undefined ? {} : { signal: options.signal }),
          ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
        },
      );
      return result as JsonObject;
    },
    setRequestHandler(method, handler) {
      client.setRequestHandler(REQUESTS[method], async (request, extra) => {
        // The SDK checks each result against the method's schema before it goes out.
        // biome-ignore lint/suspicious/noExplicitAny: one adapter for three result types
        return (await handler((request.params ?? {}) as JsonObject, extra.signal)) as any;
      });
    },
    setNotificationHandler(method, handler) {
      client.setNotificationHandler(NOTIFICATIONS[method], async (notification) => {
        await handler((notification.params ?? {}) as JsonObject);
      });
    },
    capabilities: () => client.getServerCapabilities() as JsonObject | undefined,
  };
}
