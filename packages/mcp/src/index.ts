/**
 * Tool search for MCP: an upstream pool of MCP servers and a gateway server that puts
 * tool search (the `tool_search` / `tool_describe` / `tool_call` bridge) in front of
 * them, with per-session scopes, guardrails, approvals and a review of upstream tools.
 *
 * The entry points:
 * - {@link startGateway}: pool + server + close in one call, on stdio and/or
 *   Streamable HTTP; what the `tool-search-gateway` app runs.
 * - `@tool-search/mcp/config`: the config file (`loadGatewayConfig`,
 *   `parseGatewayConfig`) and its types.
 * - `@tool-search/mcp/store/memory` and `@tool-search/mcp/store/redis`: the gateway
 *   stores (the Redis one needs the optional peer `@redis/client`).
 * - `@tool-search/mcp/review`: the review of upstream tools (fingerprints, the review
 *   file, the poisoning screen).
 * - {@link createUpstreamPool}: the connections to the upstream servers.
 * - {@link createGatewayServer}: the MCP server in front of a pool, for your own wiring.
 * - {@link validateGatewayHttpOptions}, {@link isLoopbackHost} and
 *   {@link checkAllowedOrigin}: the checks of the HTTP options, for a CLI of your own.
 *
 * @example
 * ```ts
 * import { startGateway } from '@tool-search/mcp';
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
export type { ApprovalInbox } from './console/approval-inbox.js';
export { answerPendingApproval, createApprovalInbox } from './console/approval-inbox.js';
export type { GatewayConsole, GatewayConsoleOptions } from './console/console.js';
export { CONSOLE_PATH, createGatewayConsole } from './console/console.js';
export type { DiffLine } from './console/console-diff.js';
export type { ConsoleActivity } from './console/console-feed.js';
export type { ConsoleSearchHit } from './console/console-search.js';
export type { ConsoleTool, ConsoleToolsView } from './console/console-tools.js';
export type { McpErrorCode } from './errors.js';
export { isMcpErrorCode, MCP_ERROR_CODES } from './errors.js';
export {
  clientSupportsElicitation,
  createElicitationApproval,
  createGatewayApproval,
} from './gateway/approval.js';
export type { DrainReport } from './gateway/call-drain.js';
export { SHUTTING_DOWN_ERROR_CODE } from './gateway/call-drain.js';
export { createConfigGuardrails } from './gateway/guardrails.js';
export type { HttpTokens } from './gateway/http-auth.js';
export type { HttpPrincipal, HttpRequestContext, HttpStep } from './gateway/http-chain.js';
export type { GatewayReadiness } from './gateway/http-health.js';
export {
  DEFAULT_BODY_TIMEOUT_MS,
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_MAX_SESSIONS,
} from './gateway/http-limits.js';
export type { HttpMount, HttpMountContext } from './gateway/http-mount.js';
export type {
  GatewayHttpCloseOptions,
  GatewayHttpListener,
  GatewayHttpOptions,
} from './gateway/http-options.js';
export { DEFAULT_IDLE_TIMEOUT_MS } from './gateway/http-options.js';
export {
  checkAllowedOrigin,
  isLoopbackHost,
  validateGatewayHttpOptions,
} from './gateway/http-validation.js';
export { openLearningStore } from './gateway/learning.js';
export type { GatewayServer } from './gateway/server.js';
export { createGatewayServer } from './gateway/server.js';
export { DEFAULT_SETTLE_DEADLINE_MS } from './gateway/settle-gate.js';
export type { StartedGateway, StartGatewayOptions } from './gateway/start.js';
export { startGateway } from './gateway/start.js';
export type {
  GatewayActivity,
  GatewayCloseOptions,
  GatewayConnectOptions,
  GatewayServerOptions,
  GatewaySession,
  GatewayToolSource,
  WarmUpReport,
} from './gateway/types.js';
export { createSessionEventStore } from './store/event-store.js';
export { openGatewayStore } from './store/open-store.js';
export type {
  AnswerRouting,
  AuditEntry,
  GatewayStore,
  LearningStoreOptions,
  OpenQuestion,
  PendingApproval,
  RoutedMessage,
  StoreAdmission,
  StoredAuditRecord,
  StoredSession,
  StoreSessionLimits,
} from './store/types.js';
export { DEFAULT_AUDIT_MAX_RECORDS, DEFAULT_EVENTS_PER_SESSION } from './store/types.js';
export type { BatchCallStatus } from './tool-result/batch-result.js';
export { BATCH_META_KEY } from './tool-result/batch-result.js';
export { UPSTREAM_ERROR_META_KEY } from './tool-result/error-result.js';
export {
  DEFAULT_CALL_TIMEOUT_MS,
  DEFAULT_CANCEL_GRACE_MS,
  DEFAULT_MAX_CALL_TIME_MS,
} from './upstream/call.js';
export type {
  UpstreamCallLimitsInput,
  UpstreamServerInput,
  UpstreamTransportKind,
} from './upstream/connect.js';
export type { RetryDemand } from './upstream/failed-retry.js';
export { DEFAULT_RETRY_FAILED_MS } from './upstream/failed-retry.js';
export type { CutTool, JsonMeasure, ToolLimitsVerdict, UpstreamLimits } from './upstream/limits.js';
export {
  capDescription,
  capToolDescription,
  checkToolLimits,
  DEFAULT_UPSTREAM_LIMITS,
  MIN_DESCRIPTION_CHARS,
  measureJson,
} from './upstream/limits.js';
export { createUpstreamPool } from './upstream/pool.js';
export type {
  ReconnectOptions,
  RejectedTool,
  UpstreamCallOptions,
  UpstreamPool,
  UpstreamPoolConfig,
  UpstreamPoolOptions,
  UpstreamProgressEvent,
  UpstreamServerStatus,
  UpstreamState,
  UpstreamToolInfo,
} from './upstream/pool-types.js';
export type { NamedUpstreamTool, UpstreamToolEntry } from './upstream/tool-names.js';
export { resolveToolNames, serverPrefix } from './upstream/tool-names.js';
