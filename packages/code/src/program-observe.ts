import {
  OTEL_ATTRIBUTES as A,
  activeContext,
  activeInstruments,
  activeTracer,
  EXECUTE_TOOL,
  markSpanError,
  runInSpan,
} from '@tool-search/core/internal';
import type { RequestScope } from './program-requests.js';
import type { ProgramResult } from './program-types.js';

/** Whether an OpenTelemetry SDK is registered (tracer or meter): a cheap check. */
export function programObserved(): boolean {
  return activeTracer() !== undefined || activeInstruments() !== undefined;
}

/**
 * Runs a program in an `execute_tool tool_program` span whose context its nested
 * searches, describes and calls run in (they arrive from the sandbox's worker, outside
 * the run's async chain: `scope.traceContext` carries it over), and counts the run in
 * `tool_search.programs` by status.
 */
export async function observeProgram(
  scope: RequestScope,
  run: () => Promise<ProgramResult>,
): Promise<ProgramResult> {
  const tracer = activeTracer();
  const result =
    tracer === undefined
      ? await run()
      : await runInSpan(
          tracer,
          {
            name: `${EXECUTE_TOOL} tool_program`,
            attributes: {
              [A.operationName]: EXECUTE_TOOL,
              [A.toolName]: 'tool_program',
              [A.programId]: scope.programId,
            },
          },
          async (span) => {
            scope.traceContext = activeContext();
            const settled = await run();
            span.setAttribute(A.programStatus, settled.status);
            span.setAttribute(A.programCalls, settled.calls.length);
            if (settled.error !== undefined) markSpanError(span, settled.error.code);
            return settled;
          },
        );
  activeInstruments()?.programs.add(1, { [A.programStatus]: result.status });
  return result;
}
