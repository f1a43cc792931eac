import type { Promisable, ToolCall, ToolDefinition } from '@tool-search/core';
import { ToolSearchError } from '@tool-search/core';
import { isRecord } from '@tool-search/core/internal';
import { createSessionApprovalStore, type SessionApprovalStore } from './session-approvals.js';
import type {
  ApprovalAdapter,
  ApprovalAnswer,
  ApprovalDecision,
  DispatchContext,
  DispatchTimeouts,
  Guardrail,
  ToolCallContext,
  ToolCallHook,
} from './types.js';

/**
 * Options of {@link createDispatcher}. `C` is the caller's own context: what `dispatch`
 * is given besides the {@link ToolCallContext} fields reaches `execute`, the guardrails
 * and the hooks typed, without casts.
 */
export interface DispatcherOptions<C extends object = Record<never, never>> {
  /**
   * Runs the tool. Receives the final call and a context whose `signal` aborts when the
   * caller cancels or `timeouts.execute` runs out: pass it on to the tool.
   */
  execute(call: ToolCall, ctx: DispatchContext<C>): Promisable<unknown>;
  /** Checked in order; the first refusal wins. */
  guardrails?: readonly Guardrail<C>[];
  /** `beforeCall` in this order; `afterCall`, `onError` and `onSettled` in reverse. */
  hooks?: readonly ToolCallHook<C>[];
  /** Asked after the guardrails and `beforeCall` hooks allowed the call. Without one, no one is asked. */
  approval?: ApprovalAdapter;
  /**
   * Finds a tool's definition when the context carries none, and after a `beforeCall`
   * hook renamed the call. Guardrails, hooks and the approval see it as `ctx.tool`.
   */
  resolveTool?(name: string): ToolDefinition | undefined;
  /** Where 'allow-session' answers are remembered. @defaultValue a store of this dispatcher's own */
  sessionApprovals?: SessionApprovalStore;
  /** Time limits of each step. */
  timeouts?: DispatchTimeouts;
  /**
   * OpenTelemetry (when an SDK is registered): `recordContent` records each call's
   * arguments and result on its span (`gen_ai.tool.call.arguments`/`.result`), secrets
   * redacted and rendered by the approval question's rules. Off by default: arguments
   * and results may hold secrets.
   */
  telemetry?: { recordContent?: boolean };
}

/**
 * {@link DispatcherOptions} checked once, at creation, with every default filled in:
 * what the pipeline's steps read. Internal (not exported from the package root).
 */
export interface DispatchConfig {
  execute: DispatcherOptions['execute'];
  guardrails: readonly Guardrail[];
  /** In registration order, for `beforeCall`. */
  hooks: readonly ToolCallHook[];
  /** In reverse order, for `afterCall`, `onError` and `onSettled`. */
  reversedHooks: readonly ToolCallHook[];
  approval: ApprovalAdapter | undefined;
  /** The approval's name in denials. @defaultValue `'approval'` */
  approvalName: string;
  sessionApprovals: SessionApprovalStore;
  resolveTool: ((name: string) => ToolDefinition | undefined) | undefined;
  timeouts: Required<DispatchTimeouts>;
  /** Whether spans record arguments and results. */
  recordContent: boolean;
}

const DEFAULT_TIMEOUTS: Required<DispatchTimeouts> = {
  guardrail: 10_000,
  hook: 10_000,
  approval: 300_000,
  execute: Number.POSITIVE_INFINITY,
};

const APPROVAL_DECISIONS: ReadonlySet<string> = new Set(['allow-once', 'allow-session', 'deny']);

/**
 * The signal of a call whose caller gave none. onSettled hooks race against it too,
 * because they run even for cancelled calls (an audit record for every call).
 */
export const NEVER_ABORTED: AbortSignal = new AbortController().signal;

function invalidArgument(message: string): ToolSearchError {
  return new ToolSearchError('invalid_argument', `createDispatcher: ${message}`);
}

function resolveTimeouts(timeouts: DispatchTimeouts | undefined): Required<DispatchTimeouts> {
  const resolved = { ...DEFAULT_TIMEOUTS };
  for (const key of Object.keys(DEFAULT_TIMEOUTS) as (keyof DispatchTimeouts)[]) {
    const value = timeouts?.[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || Number.isNaN(value) || value <= 0) {
      throw invalidArgument(
        `timeouts.${key} must be a positive number of milliseconds or Infinity, got ${String(value)}.`,
      );
    }
    resolved[key] = value;
  }
  return resolved;
}

function validateOptions(options: DispatcherOptions): void {
  if (typeof options?.execute !== 'function') throw invalidArgument('execute must be a function.');
  for (const guardrail of options.guardrails ?? []) {
    if (typeof guardrail?.name !== 'string' || typeof guardrail.check !== 'function') {
      throw invalidArgument('every guardrail needs a name and a check(call, ctx) method.');
    }
  }
  for (const hook of options.hooks ?? []) {
    if (typeof hook?.name !== 'string') throw invalidArgument('every hook needs a name.');
  }
  if (options.approval !== undefined && typeof options.approval?.request !== 'function') {
    throw invalidArgument('approval must have a request(request) method.');
  }
}

/**
 * Checks the options of {@link createDispatcher} and fills in the defaults.
 *
 * @param options - as given to `createDispatcher`
 * @returns the configuration the steps read; the lists are copies, so that a caller
 * who changes its arrays later does not change a running dispatcher
 * @throws `ToolSearchError` `invalid_argument` when the options are malformed
 */
export function resolveDispatcherOptions(options: DispatcherOptions): DispatchConfig {
  validateOptions(options);
  const hooks = [...(options.hooks ?? [])];
  return {
    execute: options.execute,
    guardrails: [...(options.guardrails ?? [])],
    hooks,
    reversedHooks: [...hooks].reverse(),
    approval: options.approval,
    approvalName: options.approval?.name || 'approval',
    sessionApprovals: options.sessionApprovals ?? createSessionApprovalStore(),
    resolveTool: options.resolveTool,
    timeouts: resolveTimeouts(options.timeouts),
    recordContent: options.telemetry?.recordContent === true,
  };
}

/**
 * Reads a call as the dispatcher received it, or as a `beforeCall` hook rewrote it.
 *
 * @param input - anything
 * @returns a fresh, well-formed call (absent or null arguments become `{}`), or what
 * is wrong with the input
 * @throws nothing a well-behaved object causes (a getter that throws is passed on)
 */
export function normalizeCall(input: unknown): { call: ToolCall } | { problem: string } {
  if (!isRecord(input)) return { problem: 'a call must be an object with a name and arguments' };
  const { id, name, arguments: args } = input;
  if (typeof name !== 'string' || name.length === 0) {
    return { problem: 'a call needs a non-empty string name' };
  }
  if (args !== undefined && args !== null && !isRecord(args)) {
    return { problem: `the arguments of '${name}' must be an object` };
  }
  const call: ToolCall = { name, arguments: (args as Record<string, unknown> | null) ?? {} };
  if (typeof id === 'string') call.id = id;
  return { call };
}

/**
 * The call that stands for a malformed input in its error result: the input's name
 * when it has a string one, no arguments.
 *
 * @param input - the input {@link normalizeCall} refused
 * @returns a call to show in the result
 * @throws nothing
 */
export function placeholderCall(input: unknown): ToolCall {
  return {
    name: isRecord(input) && typeof input.name === 'string' ? input.name : '',
    arguments: {},
  };
}

/**
 * Reads the caller's context: the signal every step races against.
 *
 * @param ctx - the context given to `dispatch`
 * @returns the caller's signal, or one that never aborts
 * @throws nothing
 */
export function signalOf(ctx: ToolCallContext): AbortSignal {
  return ctx.signal ?? NEVER_ABORTED;
}

/**
 * Reads an approval adapter's answer.
 *
 * @param value - what the adapter answered
 * @returns the answer (a reason only when it is a non-empty string), or `undefined`
 * when it is not one of the three decisions
 * @throws nothing
 */
export function normalizeApproval(value: unknown): ApprovalAnswer | undefined {
  if (typeof value === 'string' && APPROVAL_DECISIONS.has(value)) {
    return { decision: value as ApprovalDecision };
  }
  if (
    isRecord(value) &&
    typeof value.decision === 'string' &&
    APPROVAL_DECISIONS.has(value.decision)
  ) {
    const answer: ApprovalAnswer = { decision: value.decision as ApprovalDecision };
    if (typeof value.reason === 'string' && value.reason.length > 0) answer.reason = value.reason;
    if (typeof value.decidedBy === 'string' && value.decidedBy.length > 0) {
      answer.decidedBy = value.decidedBy;
    }
    if (typeof value.answeredBy === 'string' && value.answeredBy.length > 0) {
      answer.answeredBy = value.answeredBy.slice(0, 200);
    }
    return answer;
  }
  return undefined;
}
