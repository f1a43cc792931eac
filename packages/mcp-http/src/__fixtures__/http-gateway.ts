import type { GatewayServerOptions } from '@tool-search/mcp';
import {
  type ServedGateway,
  startServedGateway,
} from '../../../mcp/src/__fixtures__/served-gateway.js';
import { listenGatewayHttp } from '../http/http.js';
import type { GatewayHttpListener } from '../http/http-options.js';
import { type ClientOptions, connectHttpClient, type TestClient } from './clients.js';

/** A gateway of one config on Streamable HTTP, and the clients a test connected to it. */
export interface HttpGateway extends ServedGateway {
  listener: GatewayHttpListener;
  /** Connects one more client over HTTP (closed by `close`). */
  connect(options?: Omit<ClientOptions, 'profile'>): Promise<TestClient>;
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
  const served = await startServedGateway(raw, options);
  const listener = await listenGatewayHttp(served.gateway, { token });
  const clients: TestClient[] = [];
  return {
    ...served,
    listener,
    async connect(clientOptions = {}) {
      const client = await connectHttpClient(listener.url, clientOptions);
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.all(clients.map((client) => client.close()));
      await served.close();
    },
  };
}
