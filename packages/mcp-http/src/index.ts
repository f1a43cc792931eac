/**
 * Hosting for the tool search MCP gateway of `@tool-search/mcp`: Streamable HTTP for many
 * clients (sessions, limits, origin, host and token checks, replicas on a shared store),
 * {@link startGateway} (the upstream pool, the gateway server and its listeners in one
 * call) and the operator console (its API and its pages, shipped built in this package).
 *
 * The entry points:
 * - {@link startGateway}: pool + server + close in one call, on stdio and/or Streamable
 *   HTTP; what the `tool-search-gateway` app runs.
 * - {@link listenGatewayHttp}: Streamable HTTP in front of a gateway you created with
 *   `createGatewayServer` from `@tool-search/mcp`.
 * - {@link createGatewayConsole}: the operator console, as an HTTP mount.
 * - {@link validateGatewayHttpOptions}, {@link isLoopbackHost} and
 *   {@link checkAllowedOrigin}: the checks of the HTTP options, for a CLI of your own.
 *
 * @example
 * ```ts
 * import { startGateway } from '@tool-search/mcp-http';
 * import { loadGatewayConfig } from '@tool-search/mcp/config';
 *
 * const gateway = await startGateway({
 *   config: await loadGatewayConfig('gateway.json'),
 *   http: true, // 127.0.0.1, a free port, a random token
 * });
 * console.log(gateway.url, gateway.token);
 * ```
 *
 * @packageDocumentation
 */
export type { GatewayConsole, GatewayConsoleOptions } from './console/console.js';
export { CONSOLE_PATH, createGatewayConsole } from './console/console.js';
export type { DiffLine } from './console/console-diff.js';
export type { ConsoleActivity } from './console/console-feed.js';
export type { ConsoleToolPolicy } from './console/console-policy.js';
export type { ConsoleSearchHit } from './console/console-search.js';
export type { ConsoleSignIn, ConsoleSignInReader } from './console/console-sign-ins.js';
export type { ConsoleSignInFlow } from './console/console-state.js';
export type { ConsoleTool, ConsoleToolsView } from './console/console-tools.js';
export type { GatewayReloadReport } from './console/reload.js';
export type { ServerControl } from './console/server-control.js';
export type { ServerLogLine, ServerLogs } from './console/server-logs.js';
export { createSessionEventStore } from './http/event-store.js';
export { listenGatewayHttp } from './http/http.js';
export type { HttpTokens } from './http/http-auth.js';
export type { HttpPrincipal, HttpRequestContext, HttpStep } from './http/http-chain.js';
export {
  DEFAULT_BODY_TIMEOUT_MS,
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_MAX_SESSIONS,
} from './http/http-limits.js';
export type { HttpMount, HttpMountContext } from './http/http-mount.js';
export type {
  GatewayHttpCloseOptions,
  GatewayHttpListener,
  GatewayHttpOptions,
} from './http/http-options.js';
export { DEFAULT_IDLE_TIMEOUT_MS } from './http/http-options.js';
export {
  checkAllowedOrigin,
  isLoopbackHost,
  validateGatewayHttpOptions,
} from './http/http-validation.js';
export {
  createMetricsMount,
  listenMetrics,
  METRICS_PATH,
  type MetricsListener,
  type MetricsSource,
  PROMETHEUS_CONTENT_TYPE,
} from './metrics/metrics-endpoint.js';
export type { StartedGateway, StartGatewayOptions } from './start.js';
export { startGateway } from './start.js';
