import type { Promisable, ToolCall, ToolDefinition, ToolSearchErrorCode } from '@tool-search/core';
import { describeError, ToolSearchError } from '@tool-search/core';
import { runStep, type StepOutcome } from './run-step.js';
import { createSessionApprovalStore, type SessionApprovalStore } from './session-approvals.js';
import { originOfCall, toolIdentityKey } from './tool-identity.js';
import type {
  ApprovalAdapter,
  ApprovalAnswer,
  ApprovalDecision,
  ApprovalOutcome,
  DeniedBy,
  DispatchContext,
  DispatchError,
  Dispatcher,
  DispatchResult,
  DispatchSettled,
  DispatchTimeouts,
  Guardrail,
  ToolCallContext,
  ToolCallHook,
} from './types.js';

/** Options of {@link createDispatcher}. */
export interface DispatcherOptions {
  /**
   * Runs the tool. Receives the final call and a context whose `signal` aborts when the
   * caller cancels or `timeouts.execute` runs out: pass it on to the tool.
   */
  execute(call: ToolCall, ctx: DispatchContext): Promisable<unknown>;
  /** Checked in order; the first refusal wins. */
  guardrails?: readonly Guardrail[];
  /** `beforeCall` in this order; `afterCall`, `onError` and `onSettled` in reverse. */
  hooks?: readonly ToolCallHook[];
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
}

const DEFAULT_TIMEOUTS: Required<DispatchTimeouts> = {
  guardrail: 10_000,
  hook: 10_000,
  approval: 300_000,
  execute: Number.POSITIVE_INFINITY,
};

const APPROVAL_DECISIONS: ReadonlySet<string> = new Set(['allow-once', 'allow-session', 'deny']);

// onSettled hooks run even for cancelled calls (an audit record for every call), so
// they are raced against their timeout only, never against the caller's signal.
const NEVER_ABORTED = new AbortController().signal;

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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A fresh, well-formed call, or what is wrong with the input. */
function normalizeCall(input: unknown): { call: ToolCall } | { problem: string } {
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

function dispatchError(code: ToolSearchErrorCode, message: string, cause?: unknown): DispatchError {
  const error: DispatchError = { code, message };
  if (cause !== undefined) {
    Object.defineProperty(error, 'cause', { value: cause, enumerable: false });
  }
  return error;
}

function normalizeApproval(value: unknown): ApprovalAnswer | undefined {
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
    return answer;
  }
  return undefined;
}

function failureText(outcome: StepOutcome<unknown>, timeoutMs: number): string {
  if (outcome.kind === 'timeout') return `did not answer within ${timeoutMs} ms`;
  if (outcome.kind === 'thrown') return `failed: ${describeError(outcome.error)}`;
  return 'answered something unknown';
}

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
export function createDispatcher(options: DispatcherOptions): Dispatcher {
  validateOptions(options);
  const timeouts = resolveTimeouts(options.timeouts);
  const guardrails = [...(options.guardrails ?? [])];
  const hooks = [...(options.hooks ?? [])];
  const reversedHooks = [...hooks].reverse();
  const approval = options.approval;
  const approvalName = approval?.name || 'approval';
  const sessionApprovals = options.sessionApprovals ?? createSessionApprovalStore();
  const resolveTool = options.resolveTool;

  return async function dispatch(
    input: ToolCall,
    ctx: ToolCallContext = {},
  ): Promise<DispatchResult> {
    const startedAt = Date.now();
    const started = performance.now();
    const signal = ctx.signal ?? NEVER_ABORTED;
    const warnings: string[] = [];
    let approvalOutcome: ApprovalOutcome | undefined;
    let executed = false;
    const requested = normalizeCall(input);
    let call: ToolCall =
      'call' in requested
        ? requested.call
        : {
            name: isRecord(input) && typeof input.name === 'string' ? input.name : '',
            arguments: {},
          };
    let tool = ctx.tool;

    const contextFor = (stepSignal: AbortSignal): DispatchContext => ({
      ...ctx,
      viaBridge: ctx.viaBridge === true,
      tool,
      signal: stepSignal,
    });
    const denied = (by: DeniedBy, reason: string): DispatchResult => ({
      status: 'denied',
      call,
      by,
      reason,
    });
    const cancelled = (stage: string): DispatchResult => ({
      status: 'cancelled',
      call,
      reason: `The call to '${call.name}' was cancelled ${stage}.`,
    });

    const lookUp = (
      name: string,
    ): { tool: ToolDefinition | undefined } | { failure: DispatchResult } => {
      if (!resolveTool) return { tool: ctx.tool?.name === name ? ctx.tool : undefined };
      try {
        return { tool: resolveTool(name) };
      } catch (error) {
        return {
          failure: {
            status: 'error',
            call,
            error: dispatchError(
              'tool_lookup_failed',
              `Could not look up the tool '${name}': ${describeError(error)}. It was not called.`,
              error,
            ),
          },
        };
      }
    };

    const checkGuardrails = async (): Promise<DispatchResult | undefined> => {
      for (const guardrail of guardrails) {
        const outcome = await runStep(
          (stepSignal) => guardrail.check(call, contextFor(stepSignal)),
          timeouts.guardrail,
          signal,
        );
        if (outcome.kind === 'aborted') return cancelled('before it ran');
        const by: DeniedBy = { kind: 'guardrail', name: guardrail.name };
        if (outcome.kind === 'value' && isRecord(outcome.value)) {
          if (outcome.value.allow === true) continue;
          if (outcome.value.allow === false) {
            const reason = outcome.value.reason;
            return denied(
              by,
              typeof reason === 'string' && reason.length > 0
                ? reason
                : `Guardrail '${guardrail.name}' denied the call to '${call.name}'.`,
            );
          }
        }
        return denied(
          by,
          `Guardrail '${guardrail.name}' ${failureText(outcome, timeouts.guardrail)}, so the call to '${call.name}' is denied (guardrails fail closed).`,
        );
      }
      return undefined;
    };

    const runBeforeCall = async (): Promise<DispatchResult | boolean> => {
      let rewritten = false;
      for (const hook of hooks) {
        if (!hook.beforeCall) continue;
        const before = hook.beforeCall.bind(hook);
        const outcome = await runStep(
          (stepSignal) => before(call, contextFor(stepSignal)),
          timeouts.hook,
          signal,
        );
        if (outcome.kind === 'aborted') return cancelled('before it ran');
        const by: DeniedBy = { kind: 'hook', name: hook.name };
        if (outcome.kind === 'value') {
          const value: unknown = outcome.value;
          if (value === undefined || value === null) continue;
          if (isRecord(value) && 'deny' in value) {
            return denied(
              by,
              typeof value.deny === 'string' && value.deny.length > 0
                ? value.deny
                : `Hook '${hook.name}' denied the call to '${call.name}'.`,
            );
          }
          if (isRecord(value) && 'call' in value) {
            const next = normalizeCall(value.call);
            if ('problem' in next) {
              return denied(
                by,
                `Hook '${hook.name}' rewrote the call to '${call.name}' into an invalid one (${next.problem}), so it is denied.`,
              );
            }
            if (next.call.name !== call.name) {
              const found = lookUp(next.call.name);
              if ('failure' in found) return found.failure;
              tool = found.tool;
            }
            call = next.call;
            rewritten = true;
            continue;
          }
        }
        return denied(
          by,
          `Hook '${hook.name}' ${failureText(outcome, timeouts.hook)} before the call to '${call.name}', so it is denied (hooks that fail before a call deny it).`,
        );
      }
      return rewritten;
    };

    const askApproval = async (adapter: ApprovalAdapter): Promise<DispatchResult | undefined> => {
      const { sessionId } = ctx;
      // Remembered under the tool's identity, not its exposed name: a rename keeps the
      // approval, and another tool that later takes the name does not inherit it.
      const approvalKey = toolIdentityKey(call.name, originOfCall(call.name, tool));
      if (sessionId !== undefined && sessionApprovals.has(sessionId, approvalKey)) {
        approvalOutcome = 'remembered';
        return undefined;
      }
      const request = adapter.request.bind(adapter);
      const outcome = await runStep(
        (stepSignal) =>
          request({
            call,
            ...(tool ? { tool } : {}),
            ...(sessionId !== undefined ? { sessionId } : {}),
            viaBridge: ctx.viaBridge === true,
            signal: stepSignal,
          }),
        timeouts.approval,
        signal,
      );
      if (outcome.kind === 'aborted') return cancelled('while waiting for approval');
      const by: DeniedBy = { kind: 'approval', name: approvalName };
      const answer = outcome.kind === 'value' ? normalizeApproval(outcome.value) : undefined;
      if (!answer) {
        return denied(
          by,
          `Approval '${approvalName}' ${failureText(outcome, timeouts.approval)}, so the call to '${call.name}' is denied (approvals fail closed).`,
        );
      }
      approvalOutcome = answer.decision;
      if (answer.decision === 'deny') {
        return denied(by, answer.reason ?? `The call to '${call.name}' was not approved.`);
      }
      if (answer.decision === 'allow-session' && sessionId !== undefined) {
        sessionApprovals.remember(sessionId, approvalKey);
      }
      return undefined;
    };

    const runHooksAfter = async (
      phase: 'afterCall' | 'onError',
      run: (hook: ToolCallHook, stepSignal: AbortSignal) => Promisable<unknown> | undefined,
      onValue?: (hook: ToolCallHook, value: unknown) => void,
    ): Promise<boolean> => {
      for (const hook of reversedHooks) {
        if (!hook[phase]) continue;
        const outcome = await runStep((stepSignal) => run(hook, stepSignal), timeouts.hook, signal);
        if (outcome.kind === 'aborted') return false;
        if (outcome.kind === 'value') onValue?.(hook, outcome.value);
        else {
          warnings.push(
            `${phase} hook '${hook.name}' ${failureText(outcome, timeouts.hook)}; it was skipped.`,
          );
        }
      }
      return true;
    };

    const execute = async (): Promise<DispatchResult> => {
      executed = true;
      const outcome = await runStep(
        (stepSignal) => options.execute(call, contextFor(stepSignal)),
        timeouts.execute,
        signal,
      );
      if (outcome.kind === 'aborted') return cancelled('while it ran');
      if (outcome.kind === 'value') {
        let result = outcome.value;
        const completed = await runHooksAfter(
          'afterCall',
          (hook, stepSignal) => hook.afterCall?.(call, result, contextFor(stepSignal)),
          (hook, value) => {
            if (value === undefined || value === null) return;
            if (isRecord(value) && 'result' in value) result = value.result;
            else
              warnings.push(
                `afterCall hook '${hook.name}' answered something unknown; it was ignored.`,
              );
          },
        );
        // A cancelled call must not hand back a result that skipped its afterCall hooks
        // (redaction, truncation).
        if (!completed) return cancelled('after it ran');
        return { status: 'ok', call, result };
      }
      const thrown =
        outcome.kind === 'thrown'
          ? outcome.error
          : new ToolSearchError(
              'tool_timeout',
              `Tool '${call.name}' did not finish within ${timeouts.execute} ms and was aborted.`,
              { data: { tool: call.name, timeoutMs: timeouts.execute } },
            );
      const error =
        outcome.kind === 'thrown'
          ? dispatchError(
              ToolSearchError.isInstance(thrown) ? thrown.code : 'tool_failed',
              `Tool '${call.name}' failed: ${describeError(thrown)}`,
              thrown,
            )
          : dispatchError('tool_timeout', describeError(thrown), thrown);
      const completed = await runHooksAfter('onError', (hook, stepSignal) =>
        hook.onError?.(call, thrown, contextFor(stepSignal)),
      );
      if (!completed) return cancelled('after it failed');
      return { status: 'error', call, error };
    };

    const pipeline = async (): Promise<DispatchResult> => {
      if ('problem' in requested) {
        return {
          status: 'error',
          call,
          error: dispatchError('invalid_argument', `Malformed tool call: ${requested.problem}.`),
        };
      }
      if (signal.aborted) return cancelled('before it ran');
      if (!tool && resolveTool) {
        const found = lookUp(call.name);
        if ('failure' in found) return found.failure;
        tool = found.tool;
      }
      const guardrailDenial = await checkGuardrails();
      if (guardrailDenial) return guardrailDenial;
      const before = await runBeforeCall();
      if (typeof before !== 'boolean') return before;
      if (before) {
        const recheck = await checkGuardrails();
        if (recheck) return recheck;
      }
      if (approval) {
        const approvalDenial = await askApproval(approval);
        if (approvalDenial) return approvalDenial;
      }
      if (signal.aborted) return cancelled('before it ran');
      return execute();
    };

    let result: DispatchResult;
    try {
      result = await pipeline();
    } catch (error) {
      // Every step is guarded; this only catches a bug in the dispatcher itself.
      result = {
        status: 'error',
        call,
        error: dispatchError('dispatch_failed', `Dispatch failed: ${describeError(error)}`, error),
      };
    }
    if (warnings.length > 0) result.warnings = [...warnings];

    const settled: DispatchSettled = {
      requestedCall: 'call' in requested ? requested.call : call,
      result,
      executed,
      ...(approvalOutcome !== undefined ? { approval: approvalOutcome } : {}),
      startedAt,
      durationMs: performance.now() - started,
    };
    for (const hook of reversedHooks) {
      if (!hook.onSettled) continue;
      const onSettled = hook.onSettled.bind(hook);
      const outcome = await runStep(
        (stepSignal) => onSettled(settled, contextFor(stepSignal)),
        timeouts.hook,
        NEVER_ABORTED,
      );
      if (outcome.kind !== 'value') {
        warnings.push(
          `onSettled hook '${hook.name}' ${failureText(outcome, timeouts.hook)}; it was skipped.`,
        );
      }
    }
    return warnings.length > 0 ? { ...result, warnings } : result;
  };
}
