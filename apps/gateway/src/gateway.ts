import { randomBytes } from 'node:crypto';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  createGatewayServer,
  createUpstreamPool,
  type GatewayActivity,
  type GatewayConfig,
  type GatewayHttpOptions,
  type GatewayServer,
  type UpstreamPool,
  type UpstreamProgressEvent,
  type UpstreamServerStatus,
} from '@tool-search/mcp';

/** How long `close()` waits for servers that were still connecting. */
const CLOSE_GRACE_MS = 5_000;

/**
 * A gateway: the upstream pool of a config and the MCP server in front of it. Nothing
 * runs until {@link Gateway.start}; {@link Gateway.close} may be called at any time
 * (also while starting), so that a signal handler can always clean up.
 */
export interface Gateway {
  readonly pool: UpstreamPool;
  /** The HTTP endpoint, once listening on HTTP. */
  readonly url: URL | undefined;
  /** The bearer token HTTP clients must send, when one is required. */
  readonly token: string | undefined;
  /**
   * Serves at once (listens on HTTP, or starts the given transport) and connects to
   * the upstreams in the background. A client's `tools/list` or `tools/call` that comes
   * before they are all ready or failed waits up to 10 s; then it gets the tools of the
   * servers that are ready, and `notifications/tools/list_changed` as the others arrive.
   */
  start(): Promise<void>;
  /**
   * Settles once every upstream is `ready` or `failed` (for commands that need the
   * full list, such as `demo`). Starts nothing by itself: before `start()` it gives
   * the statuses as they are.
   *
   * @returns the status of every server
   * @throws nothing
   */
  ready(): Promise<UpstreamServerStatus[]>;
  /**
   * Stops serving and disconnects from every upstream (their processes exit). With a
   * grace period, it first stops accepting and lets the calls in flight finish for up
   * to `graceMs`; each one still running then gets a JSON-RPC error saying the gateway
   * is shutting down. Only then do the upstreams close.
   *
   * @param options.graceMs - how long calls in flight may still finish @defaultValue 0
   */
  close(options?: { graceMs?: number }): Promise<void>;
}

/** Options of {@link createGateway}. */
export interface GatewayOptions {
  /** The client model's context window in tokens. */
  contextWindow?: number;
  /** The profile of sessions that name none (stdio). */
  profile?: string;
  /** Upstream lifecycle events (progress display). */
  onProgress?: (event: UpstreamProgressEvent) => void;
  /** Every line of the activity feed. */
  onActivity?: (activity: GatewayActivity) => void;
  /** Serve one client on this transport (e.g. stdio). */
  transport?: Transport;
  /**
   * Listen on Streamable HTTP (`true`: 127.0.0.1, a free port, a random token). The
   * rest of {@link GatewayHttpOptions} (allowed origins, idle timeout, ...) passes
   * through with their defaults.
   */
  http?: true | (GatewayHttpOptions & { host: string; port: number });
}

/**
 * Creates a gateway for a config.
 *
 * @param config - the parsed config
 * @param options - see {@link GatewayOptions}
 * @returns the gateway, not started
 */
export function createGateway(config: GatewayConfig, options: GatewayOptions = {}): Gateway {
  const pool = createUpstreamPool(config, {
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  const http =
    options.http === true
      ? { host: '127.0.0.1', port: 0, token: randomBytes(24).toString('base64url') }
      : options.http;
  let server: GatewayServer | undefined;
  let url: URL | undefined;
  let closed = false;
  let starting: Promise<UpstreamServerStatus[]> | undefined;

  const close = async (closeOptions: { graceMs?: number } = {}) => {
    closed = true;
    await server?.close(closeOptions).catch(() => {});
    await pool.close();
    // Servers still connecting when the pool closed are closed as their connect ends;
    // wait for that (briefly), so that no child process outlives us.
    if (starting) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        starting.catch(() => {}),
        new Promise((resolve) => {
          timer = setTimeout(resolve, CLOSE_GRACE_MS);
        }),
      ]);
      clearTimeout(timer);
    }
  };

  return {
    pool,
    get url() {
      return url;
    },
    get token() {
      return http?.token;
    },
    ready: () => starting ?? Promise.resolve(pool.status()),
    async start() {
      try {
        if (closed) throw new Error('The gateway was closed before it started.');
        // Serve at once: a slow upstream must not keep every client waiting for it. Its
        // tools reach the sessions through the pool's onToolsChanged (list_changed); a
        // request that comes before the first connect round is over waits for it briefly.
        let firstRound: (statuses: UpstreamServerStatus[]) => void = () => {};
        // The server first: a bad profile is refused before any upstream is spawned.
        server = createGatewayServer({
          upstreamsReady: new Promise<UpstreamServerStatus[]>((resolve) => {
            firstRound = resolve;
          }),
          pool,
          config,
          ...(options.contextWindow !== undefined ? { contextWindow: options.contextWindow } : {}),
          ...(options.profile !== undefined ? { profile: options.profile } : {}),
          ...(options.onActivity ? { onActivity: options.onActivity } : {}),
        });
        starting = pool.start();
        void starting.then(firstRound);
        if (options.transport) await server.connect(options.transport);
        if (http) url = new URL((await server.listenHttp(http)).url);
      } catch (error) {
        await close().catch(() => {});
        throw error;
      }
    },
    close,
  };
}
