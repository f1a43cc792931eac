export {
  clientSupportsElicitation,
  createElicitationApproval,
  createGatewayApproval,
} from './approval.js';
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
export type { GatewayHttpListener, GatewayHttpOptions } from './gateway-http.js';
export { DEFAULT_IDLE_TIMEOUT_MS } from './gateway-http.js';
export type {
  GatewayActivity,
  GatewayConnectOptions,
  GatewayServer,
  GatewayServerOptions,
  GatewaySession,
  GatewayToolSource,
} from './gateway-server.js';
export { createGatewayServer } from './gateway-server.js';
export { createConfigGuardrails } from './guardrails.js';
export type { ProgressReporterOptions, ProgressStream } from './progress.js';
export { createProgressReporter } from './progress.js';
export type { UnmatchedRule } from './rule-report.js';
export { findUnmatchedRules } from './rule-report.js';
export type { NamedUpstreamTool, UpstreamToolEntry } from './tool-names.js';
export { resolveToolNames, serverPrefix } from './tool-names.js';
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
