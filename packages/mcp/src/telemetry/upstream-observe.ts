import type { FetchLike } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  OTEL_ATTRIBUTES as A,
  activeInstruments,
  activeTracer,
  EXECUTE_TOOL,
  markSpanError,
  runInSpan,
  traceCarrier,
} from '@tool-search/core/internal';

/** Whether an OpenTelemetry SDK is registered (tracer or meter): a cheap check. */
export function upstreamObserved(): boolean {
  return activeTracer() !== undefined || activeInstruments() !== undefined;
}

/**
 * Runs one upstream `tools/call` in an MCP client span (`tools/call <upstream name>`)
 * and records `mcp.client.operation.duration` by server; without an OpenTelemetry SDK
 * it only runs the call.
 */
export async function observeUpstreamCall(
  call: { server: string; upstreamName: string },
  run: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  const tracer = activeTracer();
  const instruments = activeInstruments();
  if (tracer === undefined && instruments === undefined) return run();
  const began = performance.now();
  let errorType: string | undefined;
  try {
    if (tracer === undefined) {
      const result = await run();
      if (result.isError === true) errorType = 'tool_error';
      return result;
    }
    return await runInSpan(
      tracer,
      {
        name: `tools/call ${call.upstreamName}`,
        kind: 'client',
        attributes: {
          [A.mcpMethod]: 'tools/call',
          [A.operationName]: EXECUTE_TOOL,
          [A.toolName]: call.upstreamName,
          [A.server]: call.server,
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
  } finally {
    instruments?.upstreamDuration.record((performance.now() - began) / 1000, {
      [A.mcpMethod]: 'tools/call',
      [A.server]: call.server,
      ...(errorType === undefined ? {} : { [A.errorType]: errorType }),
    });
  }
}

/**
 * The trace context to send upstream in `params._meta` (`traceparent`, and `tracestate`
 * and `baggage` when set), or undefined when nothing is traced (no SDK: no allocation).
 */
export function upstreamTraceMeta(): Record<string, string> | undefined {
  return activeTracer() === undefined ? undefined : traceCarrier();
}

/**
 * A `fetch` for an HTTP upstream's transport that adds the active trace context's
 * headers (`traceparent`, `tracestate`, `baggage`) to each request, when traced.
 */
export function tracedFetch(base: FetchLike = globalThis.fetch): FetchLike {
  return (input, init) => {
    const carrier = upstreamTraceMeta();
    if (carrier === undefined) return base(input, init);
    const headers = new Headers(init?.headers);
    for (const [key, value] of Object.entries(carrier)) headers.set(key, value);
    return base(input, { ...init, headers });
  };
}
