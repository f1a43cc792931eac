import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  type LoggingMessageNotification,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { parseGatewayConfig } from '../config/parse.js';
import {
  createGatewayServer,
  type GatewayActivity,
  type GatewayServer,
} from '../gateway/server.js';
import { createUpstreamPool, type UpstreamPool } from '../upstream/pool.js';
import { openInProcess } from './clients.js';
import { type FeatureUpstream, featureUpstream } from './feature-servers.js';

/** A gateway over the two feature upstreams (tool search off), and what it recorded. */
export interface FeatureGateway {
  alpha: FeatureUpstream;
  beta: FeatureUpstream;
  pool: UpstreamPool;
  gateway: GatewayServer;
  activity: GatewayActivity[];
  close(): Promise<void>;
}

/**
 * Starts the pool and the gateway; `config` adds to `{ mcpServers, toolSearch: off,
 * profiles: { alphaOnly } }` (per-server fields under `servers`).
 */
export async function startFeatureGateway(
  options: {
    config?: Record<string, unknown>;
    servers?: Record<string, Record<string, unknown>>;
    injected?: boolean;
    /** Reconnect a server whose link closes, at once. @defaultValue false */
    reconnect?: boolean;
  } = {},
): Promise<FeatureGateway> {
  const alpha = featureUpstream('alpha');
  const beta = featureUpstream('beta', { injected: options.injected ?? false });
  const config = parseGatewayConfig({
    mcpServers: {
      alpha: { ...alpha.entry, ...options.servers?.['alpha'] },
      beta: { ...beta.entry, ...options.servers?.['beta'] },
    },
    toolSearch: { enabled: 'off' },
    profiles: { alphaOnly: { enabledToolsets: ['mcp-alpha'] } },
    ...options.config,
  });
  const pool = createUpstreamPool(config, {
    reconnect: options.reconnect ? { initialDelayMs: 10, maxDelayMs: 10 } : false,
  });
  const activity: GatewayActivity[] = [];
  await pool.start();
  const gateway = createGatewayServer({
    pool,
    config,
    onActivity: (entry) => activity.push(entry),
  });
  return {
    alpha,
    beta,
    pool,
    gateway,
    activity,
    close: async () => {
      await gateway.close();
      await pool.close();
    },
  };
}

/** A client of the feature gateway and what it heard. */
export interface FeatureClient {
  client: Client;
  logs: LoggingMessageNotification['params'][];
  updated: string[];
  /** The sampling and elicitation requests it was sent. */
  asked: { method: string; params: unknown }[];
}

/**
 * Connects a client that declares sampling, elicitation and roots (unless `bare`).
 *
 * @param options.elicit - its answer to elicitations @defaultValue accept `{ name: 'Ada', allow: true }`
 */
export async function featureClient(
  gateway: GatewayServer,
  options: { profile?: string; bare?: boolean; elicitAllow?: boolean } = {},
): Promise<FeatureClient> {
  const client = new Client(
    { name: 'feature-test', version: '1.0.0' },
    { capabilities: options.bare ? {} : { sampling: {}, elicitation: { form: {} }, roots: {} } },
  );
  const heard: FeatureClient = { client, logs: [], updated: [], asked: [] };
  if (!options.bare) {
    client.setRequestHandler(CreateMessageRequestSchema, (request) => {
      heard.asked.push({ method: request.method, params: request.params });
      return { role: 'assistant', model: 'test-model', content: { type: 'text', text: 'sure' } };
    });
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      heard.asked.push({ method: request.method, params: request.params });
      return { action: 'accept', content: { name: 'Ada', allow: options.elicitAllow ?? true } };
    });
    client.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: [{ uri: 'file:///work', name: 'work' }],
    }));
  }
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    heard.logs.push(notification.params);
  });
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
    heard.updated.push(notification.params.uri);
  });
  await client.connect(
    await openInProcess(gateway, options.profile === undefined ? {} : { profile: options.profile }),
  );
  return heard;
}
