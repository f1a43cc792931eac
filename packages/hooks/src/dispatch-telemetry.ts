import {
  OTEL_ATTRIBUTES as A,
  activeInstruments,
  EXECUTE_TOOL,
  markSpanError,
  runInSpan,
  type Span,
  type Tracer,
} from '@tool-search/core/internal';
import { type CallState, callRoute, isSettled, type SettledCallState } from './call-state.js';
import type { DispatchConfig } from './dispatch-input.js';
import { spanContent } from './telemetry-content.js';
import type { ToolCallContext } from './types.js';

/** What {@link observeDispatch} is told about one call. */
export interface ObservedCall {
  tracer: Tracer | undefined;
  input: unknown;
  ctx: ToolCallContext;
  recordContent: boolean;
}

function nameOf(input: unknown): string | undefined {
  const name = (input as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : undefined;
}

function idOf(input: unknown): string | undefined {
  const id = (input as { id?: unknown } | null)?.id;
  return typeof id === 'string' ? id : undefined;
}

/**
 * Runs one dispatch in an `execute_tool` span (the GenAI conventions' tool execution)
 * when a tracer is given, and records the call's metrics when a meter provider is
 * registered: `tool_search.calls` and `tool_search.call.duration` by route and outcome,
 * `tool_search.approvals` by decision.
 */
export async function observeDispatch(
  observed: ObservedCall,
  run: () => Promise<SettledCallState>,
): Promise<SettledCallState> {
  const { tracer, input, ctx } = observed;
  const route = callRoute(ctx);
  const name = nameOf(input);
  let settled: SettledCallState;
  if (tracer === undefined) {
    settled = await run();
  } else {
    const id = idOf(input);
    settled = await runInSpan(
      tracer,
      {
        name: name === undefined ? EXECUTE_TOOL : `${EXECUTE_TOOL} ${name}`,
        attributes: {
          [A.operationName]: EXECUTE_TOOL,
          [A.route]: route,
          ...(name === undefined ? {} : { [A.toolName]: name }),
          ...(id === undefined ? {} : { [A.toolCallId]: id }),
          ...(ctx.programId === undefined ? {} : { [A.programId]: ctx.programId }),
          ...(ctx.tool?.source === undefined
            ? {}
            : { [A.toolType]: ctx.tool.source === 'mcp' ? 'extension' : 'function' }),
        },
      },
      async (span) => {
        const state = await run();
        describeOutcome(span, state, observed.recordContent);
        return state;
      },
    );
  }
  const instruments = activeInstruments();
  if (instruments !== undefined) {
    const outcome = settled.result.status;
    const attributes = { [A.route]: route, [A.outcome]: outcome };
    // Only a tool the dispatcher resolved is a label: a model's free text is not.
    const tool = settled.tool === undefined ? '(unknown)' : settled.tool.name;
    instruments.calls.add(1, { ...attributes, [A.toolName]: tool });
    instruments.callDuration.record((performance.now() - settled.started) / 1000, attributes);
    if (settled.approval !== undefined) {
      instruments.approvals.add(1, { [A.approvalDecision]: settled.approval, [A.route]: route });
    }
  }
  return settled;
}

function describeOutcome(span: Span, state: SettledCallState, recordContent: boolean): void {
  const { result } = state;
  span.setAttribute(A.outcome, result.status);
  if (state.approval !== undefined) span.setAttribute(A.approvalDecision, state.approval);
  if (result.status === 'denied') {
    span.setAttribute(A.deniedByKind, result.by.kind);
    span.setAttribute(A.deniedByName, result.by.name);
  } else if (result.status === 'error') {
    markSpanError(span, result.error.code, result.error.message);
  }
  if (!recordContent) return;
  span.setAttribute(A.toolCallArguments, spanContent(result.call.arguments));
  if (result.status === 'ok') span.setAttribute(A.toolCallResult, spanContent(result.result));
}

/**
 * Runs a policy step of the pipeline in a span of its own (`guardrails`, `approval`)
 * when it has something to decide; its outcome `allow`, `deny` or `cancelled`.
 */
export async function traceStep(
  tracer: Tracer,
  step: { kind: 'guardrails' | 'approval'; run: () => Promise<CallState> },
  config: DispatchConfig,
  state: CallState,
): Promise<CallState> {
  if (step.kind === 'guardrails' && config.guardrails.length === 0) return step.run();
  if (step.kind === 'approval' && config.approval === undefined) return step.run();
  return runInSpan(
    tracer,
    {
      name: step.kind,
      attributes: {
        [A.step]: step.kind,
        [A.toolName]: state.call.name,
        ...(step.kind === 'approval' ? { [A.approvalAdapter]: config.approvalName } : {}),
      },
    },
    async (span) => {
      const next = await step.run();
      const status = isSettled(next) ? next.result.status : 'allow';
      span.setAttribute(A.outcome, status === 'denied' ? 'deny' : status);
      if (next.approval !== undefined) span.setAttribute(A.approvalDecision, next.approval);
      if (isSettled(next) && next.result.status === 'denied') {
        span.setAttribute(A.deniedByName, next.result.by.name);
      }
      return next;
    },
  );
}
