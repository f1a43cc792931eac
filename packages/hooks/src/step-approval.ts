import { type CallState, callRoute, cancel, deny } from './call-state.js';
import { failureText } from './dispatch-errors.js';
import { type DispatchConfig, normalizeApproval } from './dispatch-input.js';
import { runStep } from './run-step.js';
import { originOfCall, toolIdentityKey } from './tool-identity.js';
import type { ApprovalTiming, DeniedBy, ToolCallContext } from './types.js';

/**
 * Asks the approval adapter about the final call, unless none is configured or this
 * session already answered 'allow-session' for the tool. An 'allow-session' answer is
 * remembered for the session under the tool's identity key. An adapter that throws,
 * rejects, answers something unknown or runs out of time denies the call (approvals
 * fail closed).
 *
 * @param state - the call's state after the `beforeCall` hooks
 * @param config - the approval, its name, the session store and `timeouts.approval`
 * @returns the state with `approval` set when the call may run, else a denied or
 * cancelled state; unchanged when there is no adapter
 * @throws nothing
 */
export async function runApproval(
  state: CallState,
  config: Pick<DispatchConfig, 'approval' | 'approvalName' | 'sessionApprovals' | 'timeouts'>,
): Promise<CallState> {
  const { approval: adapter, approvalName, sessionApprovals } = config;
  if (!adapter) return state;
  const { call, tool } = state;
  const { sessionId } = state.context;
  // Remembered under the tool's identity, not its exposed name: a rename keeps the
  // approval, and another tool that later takes the name does not inherit it.
  const approvalKey = toolIdentityKey(call.name, originOfCall(call.name, tool));
  if (sessionId !== undefined && sessionApprovals.has(sessionId, approvalKey)) {
    return { ...state, approval: 'remembered' };
  }
  const request = adapter.request.bind(adapter);
  const via = callRoute(state.context);
  const timeoutMs = config.timeouts.approval;
  const askedAt = performance.now();
  const outcome = await runStep(
    (stepSignal) =>
      request({
        call,
        ...(tool ? { tool } : {}),
        ...(sessionId !== undefined ? { sessionId } : {}),
        via,
        signal: stepSignal,
        context: state.context as Readonly<ToolCallContext & Record<string, unknown>>,
      }),
    timeoutMs,
    state.signal,
  );
  if (outcome.kind === 'aborted') return cancel(state, 'while waiting for approval');
  const by: DeniedBy = { kind: 'approval', name: approvalName };
  const answer = outcome.kind === 'value' ? normalizeApproval(outcome.value) : undefined;
  if (!answer) {
    return deny(
      state,
      by,
      `Approval '${approvalName}' ${failureText(outcome, timeoutMs)}, so the call to '${call.name}' is denied (approvals fail closed).`,
    );
  }
  const approvalTiming: ApprovalTiming = {
    waitMs: performance.now() - askedAt,
    answeredAt: Date.now(),
    ...(answer.answeredBy === undefined ? {} : { answeredBy: answer.answeredBy }),
  };
  const answered: CallState = { ...state, approval: answer.decision, approvalTiming };
  if (answer.decision === 'deny') {
    // A delegating adapter (a policy asking a callback) names the one that decided.
    const decider: DeniedBy =
      answer.decidedBy !== undefined && answer.decidedBy !== approvalName
        ? { kind: 'approval', name: answer.decidedBy, delegatedBy: approvalName }
        : by;
    return deny(answered, decider, answer.reason ?? `The call to '${call.name}' was not approved.`);
  }
  if (answer.decision === 'allow-session' && sessionId !== undefined) {
    sessionApprovals.remember(sessionId, approvalKey);
  }
  return answered;
}
