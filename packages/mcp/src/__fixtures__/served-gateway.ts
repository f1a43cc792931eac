import { type GatewayConfig, parseGatewayConfig } from '../config/parse.js';
import { createGatewayServer, type GatewayServer } from '../gateway/server.js';
import type { GatewayServerOptions } from '../gateway/types.js';
import { createUpstreamPool, type UpstreamPool } from '../upstream/pool.js';
import { type ClientOptions, connectClient, type TestClient } from './clients.js';

/** A gateway of one config, and the clients a test connected to it in process. */
export interface ServedGateway {
  config: GatewayConfig;
  pool: UpstreamPool;
  gateway: GatewayServer;
  /** Connects one more client (closed by `close`). */
  connect(options?: ClientOptions): Promise<TestClient>;
  /** Closes the clients, the gateway and the pool. */
  close(): Promise<void>;
}

/**
 * Starts the upstreams of a raw config (every server ready or failed) and a gateway over
 * them; its clients connect in process, their `token` choosing the profile as over HTTP.
 *
 * @param raw - the config as a file would hold it
 * @param options - more options of the gateway server
 */
export async function startServedGateway(
  raw: Record<string, unknown>,
  options: Omit<GatewayServerOptions, 'pool' | 'config'> = {},
): Promise<ServedGateway> {
  const config = parseGatewayConfig(raw);
  const pool = createUpstreamPool(config);
  await pool.start();
  const gateway = createGatewayServer({ ...options, pool, config });
  const clients: TestClient[] = [];
  return {
    config,
    pool,
    gateway,
    async connect(clientOptions) {
      const client = await connectClient(gateway, clientOptions);
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
