import { type GatewayConfig, parseGatewayConfig } from '../config/parse.js';
import type { GatewayHttpListener } from '../gateway/http.js';
import { createGatewayServer, type GatewayServer } from '../gateway/server.js';
import type { GatewayServerOptions } from '../gateway/types.js';
import { createUpstreamPool, type UpstreamPool } from '../upstream/pool.js';
import { connectHttpClient, type TestClient } from './clients.js';

/** A gateway of one config on Streamable HTTP, and the clients a test connected to it. */
export interface HttpGateway {
  config: GatewayConfig;
  pool: UpstreamPool;
  gateway: GatewayServer;
  listener: GatewayHttpListener;
  /** Connects one more client (closed by `close`). */
  connect(options: Parameters<typeof connectHttpClient>[1]): Promise<TestClient>;
  /** Closes the clients, the gateway and the pool. */
  close(): Promise<void>;
}

/**
 * Starts the upstreams of a raw config (every server ready or failed), a gateway over
 * them and its HTTP listener with `token`.
 *
 * @param raw - the config as a file would hold it
 * @param token - the gateway's bearer token
 * @param options - more options of the gateway server
 */
export async function startHttpGateway(
  raw: Record<string, unknown>,
  token: string,
  options: Omit<GatewayServerOptions, 'pool' | 'config'> = {},
): Promise<HttpGateway> {
  const config = parseGatewayConfig(raw);
  const pool = createUpstreamPool(config);
  await pool.start();
  const gateway = createGatewayServer({ ...options, pool, config });
  const listener = await gateway.listenHttp({ token });
  const clients: TestClient[] = [];
  return {
    config,
    pool,
    gateway,
    listener,
    async connect(clientOptions) {
      const client = await connectHttpClient(listener.url, clientOptions);
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.all(clients.map((client) => client.close()));
      await gateway.close();
      await pool.close();
    },
  };
}
