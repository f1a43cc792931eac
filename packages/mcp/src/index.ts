export { expandEnvVariables } from './config/env.js';
export { loadGatewayConfig } from './config/load.js';
export type { GatewayConfig, ParseGatewayConfigOptions } from './config/parse.js';
export { parseGatewayConfig } from './config/parse.js';
export type { UnmatchedRule } from './config/rule-report.js';
export { findUnmatchedRules } from './config/rule-report.js';
export type {
  ApprovalConfig,
  ApprovalHintName,
  ApprovalRuleConfig,
  GatewayPins,
  GatewayProfile,
  GuardrailsConfig,
  HttpServerConfig,
  StdioServerConfig,
  ToolPatternsConfig,
  UpstreamServerConfig,
} from './config/schemas.js';
export {
  clientSupportsElicitation,
  createElicitationApproval,
  createGatewayApproval,
} from './gateway/approval.js';
export type { DrainReport } from './gateway/call-drain.js';
export { SHUTTING_DOWN_ERROR_CODE } from './gateway/call-drain.js';
export { createConfigGuardrails } from './gateway/guardrails.js';
export type {
  GatewayHttpCloseOptions,
  GatewayHttpListener,
  GatewayHttpOptions,
} from './gateway/http.js';
export { DEFAULT_IDLE_TIMEOUT_MS } from './gateway/http.js';
export {
  DEFAULT_BODY_TIMEOUT_MS,
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_MAX_SESSIONS,
} from './gateway/http-limits.js';
export type {
  GatewayActivity,
  GatewayCloseOptions,
  GatewayConnectOptions,
  GatewayServer,
  GatewayServerOptions,
  GatewaySession,
  GatewayToolSource,
} from './gateway/server.js';
export { createGatewayServer } from './gateway/server.js';
export type { ProgressReporterOptions, ProgressStream } from './terminal/progress.js';
export { createProgressReporter } from './terminal/progress.js';
export type { TerminalStyle } from './terminal/style.js';
export { createTerminalStyle, shouldColor } from './terminal/style.js';
export type { SanitizeTerminalTextOptions } from './terminal/text.js';
export { sanitizeTerminalText } from './terminal/text.js';
export { DEFAULT_CALL_TIMEOUT_MS, DEFAULT_MAX_CALL_TIME_MS } from './upstream/call.js';
export type { UpstreamCallLimitsInput } from './upstream/connect.js';
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
export type { PoisoningFinding, PoisoningPattern } from './upstream/poisoning.js';
export { detectToolPoisoning, TOOL_POISONING_PATTERNS } from './upstream/poisoning.js';
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
} from './upstream/pool.js';
export { createUpstreamPool, UPSTREAM_ERROR_META_KEY } from './upstream/pool.js';
export type {
  HeldTool,
  ReviewHold,
  ToolFingerprint,
  ToolReviewChange,
  ToolReviewConfig,
  ToolReviewGate,
} from './upstream/review.js';
export {
  acceptToolReview,
  createToolReviewGate,
  DEFAULT_REVIEW_FILE,
  diffToolReview,
  fingerprintTool,
  readToolReview,
  reviewKey,
  writeToolReview,
} from './upstream/review.js';
export type { NamedUpstreamTool, UpstreamToolEntry } from './upstream/tool-names.js';
export { resolveToolNames, serverPrefix } from './upstream/tool-names.js';
