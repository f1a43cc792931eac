import type { ToolCall } from '@tool-search/core';
import {
  activeInstruments,
  activeTracer,
  describeError,
  type Tracer,
} from '@tool-search/core/internal';
import {
  type CallState,
  type DispatchStep,
  fail,
  isSettled,
  type SettledCallState,
  startCall,
} from './call-state.js';
import {
  type DispatchConfig,
  type DispatcherOptions,
  resolveDispatcherOptions,
} from './dispatch-input.js';
import { observeDispatch, traceStep } from './dispatch-telemetry.js';
import { runAfterHooks } from './step-after-call.js';
import { runApproval } from './step-approval.js';
import { runBeforeHooks } from './step-before-call.js';
import { runExecute } from './step-execute.js';
import { recheckGuardrails, runGuardrails } from './step-guardrails.js';
import { runSettledHooks } from './step-settled.js';
import { checkCall } from './step-start.js';
import type { Dispatcher, DispatchResult, ToolCallContext } from './types.js';

export type { DispatcherOptions } from './dispatch-input.js';

/**
 * The pipeline, in order. Each step takes the call's state and returns the next one;
 * the first step that decides the call (a result) ends it. The `onSettled` hooks run
 * after it, for every call.
 */
const PIPELINE: readonly DispatchStep[] = [
  // A malformed call is an error, a cancelled one is cancelled; the tool is looked up.
  checkCall,
  runGuardrails,
  runBeforeHooks,
  // Only when a beforeCall hook rewrote the call.
  recheckGuardrails,
  // Skipped without an adapter, or when the session already allowed the tool.
  runApproval,
  runExecute,
  // afterCall hooks after a value, onError hooks after a failure.
  runAfterHooks,
];

// The steps that decide on policy: each gets a span of its own when tracing is on.
const POLICY_STEPS = new Map<DispatchStep, 'guardrails' | 'approval'>([
  [runGuardrails, 'guardrails'],
  [recheckGuardrails, 'guardrails'],
  [runApproval, 'approval'],
]);

/**
 * Creates the normal dispatch path of a runtime: every call, whether the model made
 * it directly or through `tool_call`, goes through the same steps in the same order.
 *
 * 1. **guardrails**, in order; the first refusal denies;
 * 2. **`beforeCall` hooks**, in order; each may rewrite the call or deny it. When one
 *    rewrote it, the guardrails check the final call again, so that a rewrite cannot
 *    carry a call past them;
 * 3. **approval**, unless this session already answered 'allow-session' for the tool
 *    (remembered under its identity, `server/name` when `ctx.tool.origin` says so);
 * 4. **`execute`**, with an `AbortSignal`;
 * 5. **`afterCall` hooks** in reverse order, each may replace the result; or, when
 *    `execute` failed, **`onError` hooks** in reverse order;
 * 6. **`onSettled` hooks** in reverse order, once for every call, whatever happened
 *    (this is where {@link createAuditHook} writes its record).
 *
 * It fails closed: a guardrail, `beforeCall` hook or approval adapter that throws,
 * rejects, answers something unknown or runs out of time denies the call. An `execute`
 * that throws or times out becomes an `error` result. An `afterCall`, `onError` or
 * `onSettled` hook that fails never loses the result: it is skipped and named in
 * `warnings`. The caller's `ctx.signal` cancels whatever step is waiting (a guardrail,
 * a hook, the approval prompt, the execution) and the result is `cancelled`. The
 * returned promise never rejects.
 *
 * @param options.execute - runs the tool
 * @param options.guardrails - checks that may refuse a call
 * @param options.hooks - plugins around the call
 * @param options.approval - who decides whether a call may run
 * @param options.resolveTool - finds a tool's definition for `ctx.tool`
 * @param options.sessionApprovals - where 'allow-session' answers are remembered
 * @param options.timeouts - time limits of each step
 * @typeParam C - the caller's own context fields, e.g. `{ toolCallId: string }`: what
 * `dispatch` is given reaches `execute`, guardrails and hooks typed
 * @returns `dispatch(call, ctx?)`, resolving to a {@link DispatchResult}
 * @throws `ToolSearchError` `invalid_argument` when the options are malformed
 *
 * @example
 * ```ts
 * const dispatch = createDispatcher({
 *   execute: (call, { signal }) => mcp.callTool(call.name, call.arguments, { signal }),
 *   guardrails: [createToolPolicyGuardrail({ deny: { tools: ['*_delete_*'] } })],
 *   hooks: [createAuditHook((record) => log.info(record)), createResultTruncationHook(20_000)],
 *   approval: createPolicyApproval({
 *     require: { annotations: { destructiveHint: true } },
 *     autoApprove: { annotations: { readOnlyHint: true } },
 *     ask: createTerminalApproval(),
 *   }),
 *   resolveTool: (name) => toolsByName.get(name),
 * });
 * const result = await dispatch({ name: 'github_get_issue', arguments: { number: 7 } }, { sessionId });
 * if (result.status === 'ok') use(result.result);
 * ```
 */
export function createDispatcher<C extends object = Record<never, never>>(
  options: DispatcherOptions<C>,
): Dispatcher<C> {
  // The steps hand the caller's context on as it came (spread), so its own fields reach
  // every step; only the types are widened here.
  const config = resolveDispatcherOptions(options as unknown as DispatcherOptions);
  return async function dispatch(
    input: ToolCall,
    ctx: ToolCallContext & C = {} as ToolCallContext & C,
  ): Promise<DispatchResult> {
    const tracer = activeTracer();
    // Without an OpenTelemetry SDK this is the whole of it: no span, no metric.
    if (tracer === undefined && activeInstruments() === undefined) {
      return (await settle(input, ctx, config, undefined)).result;
    }
    const observed = { tracer, input, ctx, recordContent: config.recordContent };
    const settled = await observeDispatch(observed, () => settle(input, ctx, config, tracer));
    return settled.result;
  };
}

async function settle(
  input: ToolCall,
  ctx: ToolCallContext,
  config: DispatchConfig,
  tracer: Tracer | undefined,
): Promise<SettledCallState> {
  const decided = await runPipeline(startCall(input, ctx), config, tracer);
  return runSettledHooks(decided, config);
}

/** Runs the steps of {@link PIPELINE} until one decides the call. Never rejects. */
async function runPipeline(
  start: CallState,
  config: DispatchConfig,
  tracer: Tracer | undefined,
): Promise<SettledCallState> {
  let state = start;
  try {
    for (const step of PIPELINE) {
      // The recheck decides only after a rewrite: otherwise it is no step to show.
      const kind =
        tracer === undefined || (step === recheckGuardrails && !state.rewritten)
          ? undefined
          : POLICY_STEPS.get(step);
      const from = state;
      state =
        kind === undefined || tracer === undefined
          ? await step(from, config)
          : await traceStep(tracer, { kind, run: () => step(from, config) }, config, from);
      if (isSettled(state)) return state;
    }
    throw new Error('the pipeline ended without a result');
  } catch (error) {
    // Every step is guarded; this only catches a bug in the dispatcher itself.
    return fail(state, 'dispatch_failed', `Dispatch failed: ${describeError(error)}`, error);
  }
}
