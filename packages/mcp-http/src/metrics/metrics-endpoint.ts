import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ToolSearchError } from '@tool-search/core';
import { describeError } from '@tool-search/core/internal';
import type { GatewayProfile } from '@tool-search/mcp/config';
import type { HttpPrincipal } from '../http/http-chain.js';
import type { HttpMount } from '../http/http-mount.js';

/** Where the gateway answers Prometheus text. */
export const METRICS_PATH = '/metrics';

/** The content type of the Prometheus text exposition format. */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/**
 * What renders the gateway's metrics as Prometheus text: in the app, the OpenTelemetry
 * SDK's Prometheus reader (`@opentelemetry/exporter-prometheus`); anything that answers
 * the text exposition format will do.
 */
export interface MetricsSource {
  /**
   * @returns the metrics in the Prometheus text exposition format
   * @throws whatever the source throws (the request is answered with a 500)
   */
  collect(): Promise<string>;
}

async function answer(req: IncomingMessage, res: ServerResponse, source: MetricsSource) {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' });
    res.end('Method not allowed: GET /metrics');
    return;
  }
  let text: string;
  try {
    text = await source.collect();
  } catch (error) {
    res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(`The metrics could not be collected: ${describeError(error)}`);
    return;
  }
  res.writeHead(200, { 'content-type': PROMETHEUS_CONTENT_TYPE, 'cache-control': 'no-store' });
  res.end(req.method === 'HEAD' ? undefined : text);
}

// The gateway's own token, or an operator profile's (as for the console); a gateway
// with no token at all serves its MCP endpoint to anyone, and its metrics too.
function isOperator(
  auth: HttpPrincipal | undefined,
  profiles: Readonly<Record<string, GatewayProfile>>,
): boolean {
  if (auth === undefined) return false;
  if (auth.principal === '' || auth.principal === 'default') return true;
  if (!auth.principal.startsWith('profile:')) return false;
  return profiles[auth.principal.slice('profile:'.length)]?.operator === true;
}

/**
 * The `GET /metrics` mount of the gateway's HTTP listener: Prometheus text to a bearer
 * token of an operator (the gateway's own token, or a profile's with `operator: true`),
 * 401 to anyone else.
 *
 * @param options.source - renders the metrics
 * @param options.profiles - the config's profiles (which tokens are operators')
 * @returns the mount, for `listenGatewayHttp`'s `mounts` (or `startGateway`'s `metrics`)
 * @throws nothing
 */
export function createMetricsMount(options: {
  source: MetricsSource;
  profiles?: Readonly<Record<string, GatewayProfile>>;
}): HttpMount {
  const profiles = options.profiles ?? {};
  return {
    prefix: METRICS_PATH,
    step:
      ({ tokens }) =>
      async ({ req, res, url }) => {
        if (url.pathname !== METRICS_PATH) return false;
        if (!isOperator(tokens.authenticate(req.headers.authorization), profiles)) {
          res.writeHead(401, {
            'content-type': 'text/plain; charset=utf-8',
            'www-authenticate': 'Bearer realm="tool-search-gateway"',
          });
          res.end("Unauthorized: /metrics needs the gateway's token or an operator profile's");
          return true;
        }
        await answer(req, res, options.source);
        return true;
      },
  };
}

/** A metrics listener of its own (see {@link listenMetrics}). */
export interface MetricsListener {
  /** `http://127.0.0.1:<port>/metrics` */
  readonly url: string;
  /**
   * Stops listening and closes its connections.
   *
   * @returns once closed
   * @throws nothing
   */
  close(): Promise<void>;
}

/**
 * Serves `GET /metrics` without a token on a loopback port of its own, for a Prometheus
 * on the same machine (config `"metrics": { "port": N }`). Only 127.0.0.1 is bound.
 *
 * @param options.source - renders the metrics
 * @param options.port - the port (0: a free one)
 * @returns the listener
 * @throws `ToolSearchError` `invalid_argument` for a port that is not an integer in
 * 0-65535; the listen error when the port is taken
 */
export async function listenMetrics(options: {
  source: MetricsSource;
  port: number;
}): Promise<MetricsListener> {
  const { port } = options;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new ToolSearchError(
      'invalid_argument',
      `listenMetrics needs a port from 0 to 65535, not ${String(port)}.`,
      { data: { field: 'port' } },
    );
  }
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://metrics').pathname;
    if (path !== METRICS_PATH) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Not found: the metrics are at /metrics');
      return;
    }
    void answer(req, res, options.source);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}${METRICS_PATH}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
