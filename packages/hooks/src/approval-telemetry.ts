import {
  OTEL_ATTRIBUTES as A,
  activeInstruments,
  activeTracer,
  runInSpan,
} from '@tool-search/core/internal';
import type { ApprovalRequest } from './types.js';

/**
 * Runs the asking of a person (an approval policy's `ask` adapter) in an `approval.wait`
 * span, and records the wait in `tool_search.approval.wait.duration`, when an
 * OpenTelemetry SDK is registered; otherwise just asks.
 */
export async function observeWait<T>(
  adapterName: string,
  request: ApprovalRequest,
  ask: () => Promise<T>,
): Promise<T> {
  const tracer = activeTracer();
  const instruments = activeInstruments();
  if (tracer === undefined && instruments === undefined) return ask();
  const began = performance.now();
  const attributes = { [A.approvalAdapter]: adapterName, [A.toolName]: request.call.name };
  try {
    return tracer === undefined
      ? await ask()
      : await runInSpan(tracer, { name: 'approval.wait', attributes }, ask);
  } finally {
    instruments?.approvalWait.record((performance.now() - began) / 1000, {
      [A.approvalAdapter]: adapterName,
    });
  }
}
