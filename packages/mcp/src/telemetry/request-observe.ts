import type { CallToolRequest, CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { TOOL_PROGRAM } from '@tool-search/code';
import {
  OTEL_ATTRIBUTES as A,
  activeInstruments,
  activeTracer,
  contextFromRequest,
  EXECUTE_TOOL,
  isBridgeToolName,
  markSpanError,
  runInSpan,
} from '@tool-search/core/internal';

/** The `gen_ai.tool.name` of a call of a name the session does not know. */
const UNKNOWN_TOOL = '(unknown)';

/** What {@link observeToolsCall} needs of the SDK's request extra. */
interface RequestExtra {
  requestId: string | number;
  requestInfo?: { headers?: unknown } | undefined;
}

/**
 * Serves one `tools/call` of a client in an MCP server span (`tools/call <tool>`, the MCP
 * conventions' names: `mcp.method.name`, `mcp.session.id`, `jsonrpc.request.id`,
 * `gen_ai.tool.name`), whose parent is the trace context the client sent: `traceparent`,
 * `tracestate` and `baggage` in `params._meta` (as the MCP specification reserves them),
 * else the HTTP request's headers. Records `mcp.server.operation.duration`. Without an
 * OpenTelemetry SDK it only runs the call.
 */
export async function observeToolsCall(
  session: { id: string; knows(name: string): boolean },
  request: CallToolRequest,
  extra: RequestExtra,
  run: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  const tracer = activeTracer();
  const instruments = activeInstruments();
  if (tracer === undefined && instruments === undefined) return run();
  // A name the session does not know is the client's free text: it never becomes a span
  // name or a metric label (no unbounded cardinality from a hostile client).
  const name = request.params.name;
  const tool =
    isBridgeToolName(name) || name === TOOL_PROGRAM || session.knows(name) ? name : UNKNOWN_TOOL;
  const sessionId = session.id;
  const began = performance.now();
  let errorType: string | undefined;
  try {
    if (tracer === undefined) {
      const result = await run();
      if (result.isError === true) errorType = 'tool_error';
      return result;
    }
    const parent = contextFromRequest(request.params._meta, extra.requestInfo?.headers);
    return await runInSpan(
      tracer,
      {
        name: tool === UNKNOWN_TOOL ? 'tools/call' : `tools/call ${tool}`,
        kind: 'server',
        parent,
        attributes: {
          [A.mcpMethod]: 'tools/call',
          [A.mcpSessionId]: sessionId,
          [A.jsonrpcRequestId]: String(extra.requestId),
          [A.operationName]: EXECUTE_TOOL,
          [A.toolName]: tool,
        },
      },
      async (span) => {
        const result = await run();
        if (result.isError === true) {
          errorType = 'tool_error';
          markSpanError(span, errorType);
        }
        return result;
      },
    );
  } catch (error) {
    errorType = error instanceof Error ? error.name : 'Error';
    throw error;
  } finally {
    instruments?.serverDuration.record((performance.now() - began) / 1000, {
      [A.mcpMethod]: 'tools/call',
      [A.toolName]: tool,
      ...(errorType === undefined ? {} : { [A.errorType]: errorType }),
    });
  }
}
