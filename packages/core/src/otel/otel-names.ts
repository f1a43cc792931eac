/**
 * The names our spans and metrics carry. Where the OpenTelemetry semantic conventions
 * have a name (GenAI tool execution, MCP, JSON-RPC, errors), it is that name, spelled as
 * `@opentelemetry/semantic-conventions` 1.45 (its incubating entry) spells it; what the
 * conventions do not cover is under `tool_search.`.
 */

/** The instrumentation scope of every tracer and meter of the packages. */
export const OTEL_SCOPE = '@tool-search';

/** Span and metric attribute names. */
export const OTEL_ATTRIBUTES = {
  // GenAI conventions (tool execution)
  operationName: 'gen_ai.operation.name',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  toolCallArguments: 'gen_ai.tool.call.arguments',
  toolCallResult: 'gen_ai.tool.call.result',
  // MCP and JSON-RPC conventions
  mcpMethod: 'mcp.method.name',
  mcpSessionId: 'mcp.session.id',
  mcpProtocolVersion: 'mcp.protocol.version',
  jsonrpcRequestId: 'jsonrpc.request.id',
  // General
  errorType: 'error.type',
  // Ours
  route: 'tool_search.route',
  outcome: 'tool_search.outcome',
  deniedByKind: 'tool_search.denied_by.kind',
  deniedByName: 'tool_search.denied_by.name',
  step: 'tool_search.step',
  approvalDecision: 'tool_search.approval.decision',
  approvalAdapter: 'tool_search.approval.adapter',
  server: 'tool_search.server',
  programId: 'tool_search.program.id',
  programStatus: 'tool_search.program.status',
  programCalls: 'tool_search.program.calls',
  searchQueries: 'tool_search.search.queries',
  searchHits: 'tool_search.search.hits',
  describeNames: 'tool_search.describe.names',
  profile: 'tool_search.profile',
} as const;

/** `gen_ai.operation.name` of a tool's execution. */
export const EXECUTE_TOOL = 'execute_tool';
