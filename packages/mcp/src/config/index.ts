/**
 * The gateway's configuration file: the standard `{ "mcpServers": { ... } }` format of
 * MCP clients plus the gateway's own sections (`toolSearch`, `toolsets`, `profiles`,
 * `pins`, `guardrails`, `approval`, `limits`, `review`, `store`, `programs`). Every type here is
 * the output of the zod schema that parses its section.
 *
 * @example
 * ```ts
 * import { startGateway } from '@tool-search/mcp';
 * import { loadGatewayConfig } from '@tool-search/mcp/config';
 *
 * const gateway = await startGateway({ config: await loadGatewayConfig('gateway.json'), http: true });
 * ```
 *
 * @packageDocumentation
 */
export { expandEnvVariables } from './env.js';
export { loadGatewayConfig } from './load.js';
export type { ParseGatewayConfigOptions } from './parse.js';
export { parseGatewayConfig } from './parse.js';
export type { ProgramsConfig } from './program-schema.js';
export { DEFAULT_PROGRAMS_CONFIG, gatewayProgramLimits } from './program-schema.js';
export type { UnmatchedRule } from './rule-report.js';
export { findUnmatchedRules } from './rule-report.js';
export type {
  ApprovalConfig,
  ApprovalHintName,
  ApprovalRuleConfig,
  GatewayConfig,
  GatewayPins,
  GatewayProfile,
  GuardrailsConfig,
  HttpServerConfig,
  InProcessServerConfig,
  StdioServerConfig,
  ToolPatternsConfig,
  UpstreamServerConfig,
} from './schemas.js';
export type { ConsoleConfig, LearningConfig, ToolReviewConfig } from './section-schemas.js';
export type { MetricsConfig, TelemetryConfig } from './telemetry-schema.js';
