import { randomBytes } from 'node:crypto';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ToolSearchError } from '@tool-search/core';
import type {
  GatewayCloseOptions,
  GatewayServerOptions,
  GatewayStore,
  UpstreamPool,
  UpstreamPoolOptions,
  UpstreamProgressEvent,
  UpstreamServerStatus,
} from '@tool-search/mcp';
import {
  createGatewayServer,
  createUpstreamPool,
  type GatewayServer,
  openGatewayStore,
} from '@tool-search/mcp';
import type { GatewayConfig } from '@tool-search/mcp/config';
import { createGatewayConsole, type GatewayConsole } from './console/console.js';
import type { ConsoleSignInReader } from './console/console-sign-ins.js';
import type { ConsoleSignInFlow } from './console/console-state.js';
import type { GatewayReloadReport } from './console/reload.js';
import { createServerControl, type ServerControl } from './console/server-control.js';
import { listenGatewayHttp } from './http/http.js';
import type { GatewayHttpOptions } from './http/http-options.js';
import { validateGatewayHttpOptions } from './http/http-validation.js';
import {
  createMetricsMount,
  type listenMetrics,
  type MetricsSource,
} from './metrics/metrics-endpoint.js';

/** How long `close()` waits for servers that were still connecting. */
const CLOSE_GRACE_MS = 5_000;

/** Options of {@link startGateway}. */
export interface StartGatewayOptions
  extends Omit<GatewayServerOptions, 'pool' | 'config' | 'upstreamsReady' | 'store'> {
  /**
   * Where sessions, approvals, stream events and the audit trail are kept: a store, or
   * `memory`, or a `redis://host:port[/db]` URL (opened here and closed with the
   * gateway). With Redis, any replica behind a load balancer serves any session.
   * @defaultValue the config's `store`, else 'memory'
   */
  store?: GatewayStore | string;
  /** The parsed gateway config (see {@link loadGatewayConfig}). */
  config: GatewayConfig;
  /** Serve one client on this transport (not started), e.g. a `StdioServerTransport`. */
  transport?: Transport;
  /**
   * Listen on Streamable HTTP. `true`: on 127.0.0.1, a free port, with a random
   * bearer token (see {@link StartedGateway.token}). Otherwise the options of
   * {@link listenGatewayHttp}, checked before any upstream starts.
   */
  http?: true | GatewayHttpOptions;
  /** Upstream lifecycle events, e.g. a `createProgressReporter()`. */
  onProgress?: (event: UpstreamProgressEvent) => void;
  /** The upstream pool's other options (timeouts, reconnect, stderr, client info). */
  pool?: Omit<UpstreamPoolOptions, 'onProgress'>;
  /**
   * Serve the operator console under `/console` of the HTTP listener (also on when the
   * config says `console: { enabled: true }` and there is an HTTP listener):
   * `assetsDirectory` is the folder of its built front end (this package ships one, the default).
   * Needs `http`.
   */
  console?: {
    assetsDirectory?: string;
    signIns?: ConsoleSignInReader;
    /** Starts sign-ins whose redirect comes back to the console (the host's sign-in broker). */
    signInFlow?: ConsoleSignInFlow;
  };
  /**
   * Serve `GET /metrics` (Prometheus text from `source`) on the HTTP listener, to the
   * gateway's token or an operator profile's; needs `http`. (For a loopback port of its
   * own without a token, see {@link listenMetrics}.)
   */
  metrics?: { source: MetricsSource };
  /**
   * Reads the config file again, for {@link StartedGateway.reload} (`SIGHUP`, the `reload`
   * command and the console's Reload): `() => loadGatewayConfig(path)`. Without it a
   * reload changes nothing and says so.
   */
  loadConfig?: () => Promise<GatewayConfig>;
}

/** A running gateway: its upstream pool, its MCP server and where it listens. */
export interface StartedGateway {
  /** The HTTP endpoint to connect to from this machine, when listening on HTTP. */
  readonly url?: string;
  /** The bearer token HTTP clients send without a profile, when one is set. */
  readonly token?: string;
  /** The upstream pool (connecting in the background). */
  readonly pool: UpstreamPool;
  /** The MCP gateway server: more sessions with `connect()` or {@link listenGatewayHttp}. */
  readonly server: GatewayServer;
  /** Where sessions, approvals, stream events and the audit trail are kept. */
  readonly store: GatewayStore;
  /** The operator console, when it is on. */
  readonly console?: GatewayConsole;
  /**
   * Settles once every upstream is `ready` or `failed` (for tools that need the full
   * list).
   *
   * @returns the status of every server
   * @throws nothing
   */
  ready(): Promise<UpstreamServerStatus[]>;
  /**
   * Stops serving and disconnects from every upstream (their processes exit). With a
   * grace period it first stops accepting and lets the calls in flight finish for up
   * to `graceMs`; each one still running then gets a JSON-RPC error saying the gateway
   * is shutting down. Only then do the upstreams close.
   *
   * @param options.graceMs - how long calls in flight may still finish @defaultValue 0
   * @returns once closed
   * @throws nothing
   */
  close(options?: GatewayCloseOptions): Promise<void>;
  /**
   * Reads the config again (`loadConfig`) and applies it while sessions go on: servers
   * added connect, removed ones close, changed ones restart; profiles, guardrails,
   * approval, toolsets and tool search apply to every open session's next request
   * (`GatewayServer.applyConfig`; a profile token added works at once, one removed is
   * refused at once, a removed profile's sessions end). The other sections are reported
   * as applying at the next start. A config that does not
   * parse changes nothing (`ok: false`, and why). With `dryRun`, only reports.
   *
   * @throws nothing
   */
  reload(options?: { dryRun?: boolean }): Promise<GatewayReloadReport>;
  /** The servers' recent output, restart and reload, as the console uses them. */
  readonly servers: ServerControl;
}

/** `http: true` is loopback on a free port with a fresh token. */
function httpOptionsOf(httpOption: StartGatewayOptions['http']): GatewayHttpOptions | undefined {
  return httpOption === true
    ? { host: '127.0.0.1', port: 0, token: randomBytes(24).toString('base64url') }
    : httpOption;
}

/** The store given, or the one the spec names, telling `onStoreError` when it goes and comes. */
async function storeOf(
  storeSpec: GatewayStore | string | undefined,
  onStoreError: ((message: string) => void) | undefined,
): Promise<GatewayStore> {
  if (typeof storeSpec === 'object') return storeSpec;
  return openGatewayStore(storeSpec, {
    ...(onStoreError === undefined
      ? {}
      : {
          onStatus: (status) =>
            onStoreError(
              status.state === 'ready'
                ? 'the store is connected'
                : `the store is down (${status.detail ?? 'connection lost'}); what needs it fails until it is back`,
            ),
        }),
  });
}

function poolOf(
  options: StartGatewayOptions,
  store: GatewayStore,
  withLogs: (given: UpstreamPoolOptions) => UpstreamPoolOptions,
): UpstreamPool {
  const { onProgress } = options;
  return createUpstreamPool(
    options.config,
    withLogs({
      // Replicas hold back the same tools: the accepted fingerprints live in the store.
      ...(store.shared
        ? {
            sharedReview: {
              read: () => store.getFingerprints(),
              write: (accepted) => store.putFingerprints(accepted),
            },
          }
        : {}),
      ...options.pool,
      ...(onProgress === undefined ? {} : { onProgress }),
    }),
  );
}

/** What a started gateway closes, in order. */
interface Started {
  server: GatewayServer;
  pool: UpstreamPool;
  store: GatewayStore;
  ownStore: boolean;
  starting: Promise<unknown>;
}

async function closeStarted(started: Started, closeOptions: GatewayCloseOptions): Promise<void> {
  const { server, pool, store, starting } = started;
  await server.close(closeOptions).catch(() => {});
  await pool.close();
  if (started.ownStore) await store.close().catch(() => {});
  // Servers still connecting when the pool closed are closed as their connect
  // ends; wait for that (briefly), so that no child process outlives the gateway.
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    starting.catch(() => {}),
    new Promise((resolve) => {
      timer = setTimeout(resolve, CLOSE_GRACE_MS);
    }),
  ]);
  clearTimeout(timer);
}

/**
 * Starts a gateway for a config: the upstream pool and the MCP server in front of
 * it, serving on a transport and/or Streamable HTTP. It serves at once and connects
 * to the upstreams in the background: a client's `tools/list` or `tools/call` that
 * comes before they are all ready or failed waits up to `upstreamsWaitMs` (10 s),
 * then gets the tools of the servers that are ready, and
 * `notifications/tools/list_changed` as the others arrive.
 *
 * Everything that can be checked is checked before any upstream is spawned: the HTTP
 * options ({@link validateGatewayHttpOptions}) and the profile.
 *
 * @example
 * ```ts
 * const gateway = await startGateway({
 *   config: await loadGatewayConfig('gateway.json'),
 *   http: { port: 8080, token: process.env.GATEWAY_TOKEN },
 *   contextWindow: 200_000,
 *   onProgress: createProgressReporter(),
 * });
 * console.log(`MCP on ${gateway.url}`);
 * process.once('SIGTERM', () => void gateway.close({ graceMs: 10_000 }));
 * ```
 *
 * @param options - see {@link StartGatewayOptions}
 * @returns the running gateway, once it serves (the upstreams may still be connecting)
 * @throws {@link ToolSearchError} `invalid_config` for bad HTTP options, an unknown
 * `profile` or bad toolset definitions, or a `console` without `http`, before any
 * upstream starts; `store_unavailable`
 * for a `redis://` store when the optional peer `@redis/client` is not installed (the
 * Redis store is loaded only then); the listen error when the port is taken
 * (everything started is closed again)
 */
export async function startGateway(options: StartGatewayOptions): Promise<StartedGateway> {
  const {
    config,
    transport,
    http: httpOption,
    onProgress: _onProgress,
    pool: _poolOptions,
    store: storeOption,
    console: consoleOption,
    metrics: metricsOption,
    loadConfig,
    ...serverOptions
  } = options;
  const http = httpOptionsOf(httpOption);
  if (http !== undefined) validateGatewayHttpOptions(http, config);
  // The config's `console` applies where there is an HTTP listener (a stdio gateway of
  // the same config has none); the option asks for it outright.
  const consoleWanted =
    consoleOption !== undefined || (config.console?.enabled === true && http !== undefined);
  if (consoleOption !== undefined && http === undefined) {
    throw new ToolSearchError(
      'invalid_config',
      'The console is served from the HTTP listener: start the gateway with http (serve --http) to use it.',
      { data: { field: 'console' } },
    );
  }
  const storeSpec = storeOption ?? config.store;
  const store = await storeOf(storeSpec, serverOptions.onStoreError);
  const control = createServerControl(config, http?.token, loadConfig);
  const pool = poolOf(options, store, control.poolOptions);
  // The server is made below; a reload (never before this function returns) applies to it.
  const servers = control.attach(pool, (next) => server.applyConfig(next));
  // Serve at once: a slow upstream must not keep every client waiting for it. Its tools
  // reach the sessions through the pool's onToolsChanged (list_changed); a request that
  // comes before the first connect round is over waits for it briefly.
  let firstRound: (statuses: UpstreamServerStatus[]) => void = () => {};
  // The server first: a bad profile is refused before any upstream is spawned.
  let gatewayConsole: GatewayConsole | undefined;
  const server = createGatewayServer({
    ...serverOptions,
    ...(consoleWanted
      ? {
          onActivity: (activity) => {
            gatewayConsole?.record(activity);
            serverOptions.onActivity?.(activity);
          },
        }
      : {}),
    pool,
    config,
    store,
    upstreamsReady: new Promise<UpstreamServerStatus[]>((resolve) => {
      firstRound = resolve;
    }),
  });
  if (consoleWanted) {
    gatewayConsole = createGatewayConsole({
      store,
      pool,
      config,
      // Who may sign in follows a reload of the config (`applyConfig` replaces them).
      profiles: () => server.profiles,
      sessions: () => server.sessions(),
      ...(serverOptions.ranker === undefined ? {} : { ranker: serverOptions.ranker }),
      ...(serverOptions.contextWindow === undefined
        ? {}
        : { contextWindow: serverOptions.contextWindow }),
      ...(consoleOption?.assetsDirectory === undefined
        ? {}
        : { assetsDirectory: consoleOption.assetsDirectory }),
      ...(server.learner === undefined ? {} : { learner: server.learner }),
      servers,
      // An operator's own session: an operator profile's scope, or the gateway token's.
      openSession: (principal) => {
        const profile = principal.startsWith('profile:')
          ? principal.slice('profile:'.length)
          : server.defaultProfile;
        return server.openSession({ ...(profile === undefined ? {} : { profile }), principal });
      },
      ...(consoleOption?.signIns === undefined ? {} : { signIns: consoleOption.signIns }),
      ...(consoleOption?.signInFlow === undefined ? {} : { signInFlow: consoleOption.signInFlow }),
      ...(http?.allowedHosts === undefined ? {} : { callbackHosts: http.allowedHosts }),
    });
  }
  const starting = pool.start();
  void starting.then(firstRound);
  const ownStore = typeof storeSpec === 'string' || storeSpec === undefined;
  let closing: Promise<void> | undefined;
  const close = (closeOptions: GatewayCloseOptions = {}): Promise<void> => {
    gatewayConsole?.close();
    closing ??= closeStarted({ server, pool, store, ownStore, starting }, closeOptions);
    return closing;
  };
  let url: string | undefined;
  try {
    if (transport !== undefined) await server.connect(transport);
    if (http !== undefined) {
      const mounts = [
        ...(http.mounts ?? []),
        ...(gatewayConsole === undefined ? [] : [gatewayConsole]),
        ...(metricsOption === undefined
          ? []
          : [createMetricsMount({ source: metricsOption.source, profiles: server.profiles })]),
      ];
      url = (await listenGatewayHttp(server, { ...http, mounts })).url;
    }
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }
  return {
    ...(url === undefined ? {} : { url }),
    ...(http?.token === undefined ? {} : { token: http.token }),
    pool,
    server,
    store,
    ...(gatewayConsole === undefined ? {} : { console: gatewayConsole }),
    ready: () => starting,
    close,
    reload: (reloadOptions) => servers.reload(reloadOptions),
    servers,
  };
}
