import type { ToolCall, ToolDefinition, ToolSearchErrorCode } from '@tool-search/core';
import { dispatchError } from './dispatch-errors.js';
import { type DispatchConfig, normalizeCall, placeholderCall, signalOf } from './dispatch-input.js';
import type {
  ApprovalOutcome,
  ApprovalTiming,
  CallRoute,
  DeniedBy,
  DispatchContext,
  DispatchError,
  DispatchResult,
  ToolCallContext,
} from './types.js';

/** How `execute` ended when it was neither cancelled nor yet passed to the after hooks. */
export type Execution =
  | { kind: 'value'; value: unknown }
  | { kind: 'failed'; thrown: unknown; error: DispatchError };

/**
 * Everything that changes while one call goes through the pipeline. Each step takes a
 * state and returns the next one (never changing the one it got); a step that decides
 * the call sets `result`, and the pipeline stops there. Who denied a call is the
 * `by` of a `denied` result. Internal (not exported from the package root).
 */
export interface CallState {
  /** The call as received, or what is wrong with it. */
  readonly requested: { call: ToolCall } | { problem: string };
  /** The current call: the received one, after the `beforeCall` rewrites so far. */
  readonly call: ToolCall;
  /** The current call's definition, as `ctx.tool`. */
  readonly tool: ToolDefinition | undefined;
  /** Whether a `beforeCall` hook rewrote the call (the guardrails then check it again). */
  readonly rewritten: boolean;
  /** The caller's context, as given to `dispatch`. */
  readonly context: ToolCallContext;
  /** The caller's signal, or one that never aborts. */
  readonly signal: AbortSignal;
  /** When the dispatch began, in milliseconds since the epoch. */
  readonly startedAt: number;
  /** When the dispatch began, on the `performance.now()` clock (for the duration). */
  readonly started: number;
  /** How the approval step went, once it was reached. */
  readonly approval?: ApprovalOutcome;
  /** When and by whom the adapter answered, and the wait. */
  readonly approvalTiming?: ApprovalTiming;
  /** Whether `execute` was started. */
  readonly executed: boolean;
  /** How `execute` ended, until the after hooks turn it into a result. */
  readonly execution?: Execution;
  /** Hooks that failed after the decision, in the order they failed. */
  readonly warnings: readonly string[];
  /** The call's result, once a step decided it. */
  readonly result?: DispatchResult;
}

/**
 * One step of the pipeline: takes a state without a result and returns the next state.
 * It never throws for anything a guardrail, hook, adapter or tool does.
 */
export type DispatchStep = (state: CallState, config: DispatchConfig) => Promise<CallState>;

/** A state whose result is decided. */
export interface SettledCallState extends CallState {
  readonly result: DispatchResult;
}

/**
 * The first state of a call.
 *
 * @param input - the call as given to `dispatch` (it may be malformed)
 * @param context - the caller's context
 * @returns a state with no result yet; a malformed input keeps its problem in
 * `requested` and a placeholder call
 * @throws nothing a well-behaved object causes (an input whose getter throws is passed on)
 */
export function startCall(input: unknown, context: ToolCallContext): CallState {
  const startedAt = Date.now();
  const started = performance.now();
  const requested = normalizeCall(input);
  return {
    requested,
    call: 'call' in requested ? requested.call : placeholderCall(input),
    tool: context.tool,
    rewritten: false,
    context,
    signal: signalOf(context),
    startedAt,
    started,
    executed: false,
    warnings: [],
  };
}

/**
 * The context a guardrail, hook, approval or `execute` receives in this state.
 *
 * @param state - the call's state (its current tool is `ctx.tool`)
 * @param signal - the step's own signal
 * @returns the caller's context with `via`, `tool` and `signal` set
 * @throws nothing
 */
export function contextFor(state: CallState, signal: AbortSignal): DispatchContext {
  const via = callRoute(state.context);
  return { ...state.context, via, tool: state.tool, signal };
}

/**
 * How a call came in, read from the caller's context: its `via`, `'direct'` when absent
 * or unknown.
 *
 * @param context - the caller's context
 * @returns `'bridge'`, `'program'` or `'direct'`
 * @throws nothing
 */
export function callRoute(context: ToolCallContext): CallRoute {
  return context.via === 'bridge' || context.via === 'program' || context.via === 'console'
    ? context.via
    : 'direct';
}

/**
 * Settles the call as denied.
 *
 * @param state - the call's state
 * @param by - the step that refused it
 * @param reason - shown to the model
 * @returns the next state, with a `denied` result for the current call
 * @throws nothing
 */
export function deny(state: CallState, by: DeniedBy, reason: string): SettledCallState {
  return { ...state, result: { status: 'denied', call: state.call, by, reason } };
}

/**
 * Settles the call as cancelled by the caller's signal.
 *
 * @param state - the call's state
 * @param stage - when, e.g. `before it ran`
 * @returns the next state, with a `cancelled` result for the current call
 * @throws nothing
 */
export function cancel(state: CallState, stage: string): SettledCallState {
  const reason = `The call to '${state.call.name}' was cancelled ${stage}.`;
  return { ...state, result: { status: 'cancelled', call: state.call, reason } };
}

/**
 * Settles the call as an error.
 *
 * @param state - the call's state
 * @param code - the error code
 * @param message - what failed
 * @param cause - the thrown value, if any
 * @returns the next state, with an `error` result for the current call
 * @throws nothing
 */
export function fail(
  state: CallState,
  code: ToolSearchErrorCode,
  message: string,
  cause?: unknown,
): SettledCallState {
  return {
    ...state,
    result: { status: 'error', call: state.call, error: dispatchError(code, message, cause) },
  };
}

/**
 * Adds a warning about a hook that failed after the decision.
 *
 * @param state - the call's state
 * @param warning - what failed, naming the hook
 * @returns the next state
 * @throws nothing
 */
export function warn<State extends CallState>(state: State, warning: string): State {
  return { ...state, warnings: [...state.warnings, warning] };
}

/**
 * Whether a step decided the call.
 *
 * @param state - the call's state
 * @returns true when `result` is set
 * @throws nothing
 */
export function isSettled(state: CallState): state is SettledCallState {
  return state.result !== undefined;
}
