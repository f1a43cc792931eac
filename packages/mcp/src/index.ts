export {
  clientSupportsElicitation,
  createElicitationApproval,
  createGatewayApproval,
} from './approval.js';
export type { DrainReport } from './call-drain.js';
export { SHUTTING_DOWN_ERROR_CODE } from './call-drain.js';
export type {
  ApprovalConfig,
  ApprovalHintName,
  ApprovalRuleConfig,
  GatewayConfig,
  GatewayPins,
  GatewayProfile,
  GuardrailsConfig,
  HttpServerConfig,
  ParseGatewayConfigOptions,
  StdioServerConfig,
  ToolPatternsConfig,
  UpstreamServerConfig,
} from './config.js';
export { loadGatewayConfig, parseGatewayConfig } from './config.js';
export { expandEnvVariables } from './env.js';
export { DEFAULT_RETRY_FAILED_MS } from './failed-retry.js';
export type {
  GatewayHttpCloseOptions,
  GatewayHttpListener,
  GatewayHttpOptions,
} from './gateway-http.js';
export { DEFAULT_IDLE_TIMEOUT_MS } from './gateway-http.js';
export type {
  GatewayActivity,
  GatewayCloseOptions,
  GatewayConnectOptions,
  GatewayServer,
  GatewayServerOptions,
  GatewaySession,
  GatewayToolSource,
} from './gateway-server.js';
export { createGatewayServer } from './gateway-server.js';
export { createConfigGuardrails } from './guardrails.js';
export {
  DEFAULT_BODY_TIMEOUT_MS,
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_MAX_SESSIONS,
} from './http-limits.js';
export type { ProgressReporterOptions, ProgressStream } from './progress.js';
export { createProgressReporter } from './progress.js';
export type { UnmatchedRule } from './rule-report.js';
export { findUnmatchedRules } from './rule-report.js';
export type { TerminalStyle } from './terminal-style.js';
export { createTerminalStyle, shouldColor } from './terminal-style.js';
export type { SanitizeTerminalTextOptions } from './terminal-text.js';
export { sanitizeTerminalText } from './terminal-text.js';
export type { NamedUpstreamTool, UpstreamToolEntry } from './tool-names.js';
export { resolveToolNames, serverPrefix } from './tool-names.js';
export type { PoisoningFinding, PoisoningPattern } from './tool-poisoning.js';
export { detectToolPoisoning, TOOL_POISONING_PATTERNS } from './tool-poisoning.js';
export type {
  HeldTool,
  ReviewHold,
  ToolFingerprint,
  ToolReviewChange,
  ToolReviewConfig,
  ToolReviewGate,
} from './tool-review.js';
export {
  acceptToolReview,
  createToolReviewGate,
  DEFAULT_REVIEW_FILE,
  diffToolReview,
  fingerprintTool,
  readToolReview,
  reviewKey,
  writeToolReview,
} from './tool-review.js';
export { DEFAULT_CALL_TIMEOUT_MS, DEFAULT_MAX_CALL_TIME_MS } from './upstream-call.js';
export type { UpstreamCallLimitsInput } from './upstream-connect.js';
export type { CutTool, JsonMeasure, ToolLimitsVerdict, UpstreamLimits } from './upstream-limits.js';
export {
  capDescription,
  capToolDescription,
  checkToolLimits,
  DEFAULT_UPSTREAM_LIMITS,
  MIN_DESCRIPTION_CHARS,
  measureJson,
} from './upstream-limits.js';
export type {
  ReconnectOptions,
  RejectedTool,
  UpstreamCallOptions,
  UpstreamPool,
  UpstreamPoolConfig,
  UpstreamPoolOptions,
  UpstreamProgressEvent,
  UpstreamServerInput,
  UpstreamServerStatus,
  UpstreamState,
  UpstreamToolInfo,
  UpstreamTransportKind,
} from './upstream-pool.js';
export { createUpstreamPool, UPSTREAM_ERROR_META_KEY } from './upstream-pool.js';
