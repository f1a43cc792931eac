/**
 * Tool search for MCP, in your process: an upstream pool of MCP servers and a gateway
 * server that puts tool search (the `tool_search` / `tool_describe` / `tool_call` bridge)
 * in front of them, with per-session scopes, guardrails, approvals, learning, programs and
 * a review of upstream tools. It serves a session over any MCP transport you connect
 * (stdio, in-memory); serving many clients over Streamable HTTP, replicas, `startGateway`
 * and the operator console live in the hosting package `@tool-search/mcp-http`.
 *
 * The entry points:
 * - {@link createUpstreamPool}: the connections to the upstream servers.
 * - {@link createGatewayServer}: the MCP server in front of a pool.
 * - `@tool-search/mcp/config`: the config file (`loadGatewayConfig`,
 *   `parseGatewayConfig`) and its types.
 * - `@tool-search/mcp/store/memory` and `@tool-search/mcp/store/redis`: the gateway
 *   stores (the Redis one needs the optional peer `@redis/client`).
 * - `@tool-search/mcp/review`: the review of upstream tools (fingerprints, the review
 *   file, the poisoning screen).
 *
 * @example
 * ```ts
 * import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
 * import { createGatewayServer, createUpstreamPool } from '@tool-search/mcp';
 * import { loadGatewayConfig } from '@tool-search/mcp/config';
 *
 * const config = await loadGatewayConfig('gateway.json');
 * const pool = createUpstreamPool(config);
 * await pool.start();
 * const gateway = createGatewayServer({ pool, config });
 * await gateway.connect(new StdioServerTransport());
 * ```
 *
 * @packageDocumentation
 */

export type {
  ClientCredentialsUpstreamAuthConfig,
  OAuthUpstreamAuthConfig,
  UpstreamAuthConfig,
} from './config/upstream-auth-schema.js';
export type { McpErrorCode } from './errors.js';
export { isMcpErrorCode, MCP_ERROR_CODES } from './errors.js';
export {
  clientSupportsElicitation,
  createElicitationApproval,
  createGatewayApproval,
} from './gateway/approval.js';
export type { ApprovalInbox } from './gateway/approval-inbox.js';
export {
  answerPendingApproval,
  createApprovalInbox,
  isApprovalDecision,
} from './gateway/approval-inbox.js';
export type { DrainReport } from './gateway/call-drain.js';
export { SHUTTING_DOWN_ERROR_CODE } from './gateway/call-drain.js';
export { createConfigGuardrails } from './gateway/guardrails.js';
export { openLearningStore } from './gateway/learning.js';
export type { RelayQuestion } from './gateway/modern-relay.js';
export type {
  GatewayPolicyConfig,
  GatewayPolicyReport,
} from './gateway/policy-reload.js';
export type { GatewayFeatureChange, GatewayServer } from './gateway/server.js';
export { createGatewayServer } from './gateway/server.js';
export type { GatewayHost, GatewayReadiness } from './gateway/server-state.js';
export { DEFAULT_SETTLE_DEADLINE_MS } from './gateway/settle-gate.js';
export type { ApprovalQuestion } from './gateway/stateless-approval.js';
export {
  APPROVAL_INPUT_KEY,
  DEFAULT_CREDENTIAL_ALLOW_MS,
} from './gateway/stateless-approval.js';
export type {
  GatewayStatelessFeatures,
  StatelessListen,
} from './gateway/stateless-features.js';
export type { StatelessRequestContext } from './gateway/stateless-relay.js';
export type {
  GatewayStatelessView,
  StatelessCallContext,
  StatelessCallOutcome,
  StatelessCallParams,
  StatelessToolList,
} from './gateway/stateless-session.js';
export type {
  GatewayActivity,
  GatewayCloseOptions,
  GatewayConnectOptions,
  GatewayOpenSessionOptions,
  GatewayOperatorCallOptions,
  GatewayServerOptions,
  GatewaySession,
  GatewayToolSource,
  WarmUpReport,
} from './gateway/types.js';
export {
  WORKING_SET_ARGUMENT,
  WORKING_SET_META_KEY,
  WORKING_SET_TTL_MS,
} from './gateway/working-set.js';
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
export type {
  FeatureClient,
  FeatureNotification,
  JsonObject,
  RelayedMethod,
} from './upstream/features/feature-client.js';
export type {
  CallRelay,
  RelayRecord,
  SamplingPolicy,
  UpstreamRelayPolicyInput,
} from './upstream/features/relay.js';
export type { FeatureFinding, FeatureKind } from './upstream/features/screen-features.js';
export type {
  FeatureEvent,
  ServerFeatures,
  UpstreamFeatures,
} from './upstream/features/upstream-features.js';
export type {
  UpstreamInputContext,
  UpstreamInputHandler,
  UpstreamInputResume,
} from './upstream/input-required.js';
export { DEFAULT_MAX_INPUT_ROUNDS } from './upstream/input-required.js';
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
  PoolReloadOptions,
  PoolReloadReport,
  ReconnectOptions,
  RejectedTool,
  RestartOutcome,
  UpstreamAuthProviderFactory,
  UpstreamCallOptions,
  UpstreamPool,
  UpstreamPoolConfig,
  UpstreamPoolOptions,
  UpstreamProgressEvent,
  UpstreamServerStatus,
  UpstreamState,
  UpstreamToolInfo,
  UpstreamViewOptions,
} from './upstream/pool-types.js';
