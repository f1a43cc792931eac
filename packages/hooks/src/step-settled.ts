import { contextFor, type SettledCallState, warn } from './call-state.js';
import { failureText } from './dispatch-errors.js';
import { type DispatchConfig, NEVER_ABORTED } from './dispatch-input.js';
import { runStep } from './run-step.js';
import type { DispatchResult, DispatchSettled } from './types.js';

/**
 * The record `onSettled` hooks receive for a decided call.
 *
 * @param state - a settled state
 * @returns the requested call, the result with the warnings so far, whether `execute`
 * started, the approval step and the timings (the duration ends now)
 * @throws nothing
 */
export function settledRecord(state: SettledCallState): DispatchSettled {
  const result: DispatchResult =
    state.warnings.length > 0 ? { ...state.result, warnings: [...state.warnings] } : state.result;
  return {
    requestedCall: 'call' in state.requested ? state.requested.call : state.call,
    result,
    executed: state.executed,
    ...(state.approval !== undefined ? { approval: state.approval } : {}),
    ...(state.approvalTiming !== undefined ? { approvalTiming: state.approvalTiming } : {}),
    startedAt: state.startedAt,
    durationMs: performance.now() - state.started,
  };
}

/**
 * The last step, for every call whatever happened: the `onSettled` hooks run in reverse
 * order, raced against their timeout only (never the caller's signal, so that a
 * cancelled call still gets its audit record). One that fails is skipped and named in
 * `warnings`.
 *
 * @param state - a settled state
 * @param config - the hooks in reverse order and `timeouts.hook`
 * @returns the state whose result carries every warning
 * @throws nothing
 */
export async function runSettledHooks(
  state: SettledCallState,
  config: Pick<DispatchConfig, 'reversedHooks' | 'timeouts'>,
): Promise<SettledCallState> {
  const settled = settledRecord(state);
  const timeoutMs = config.timeouts.hook;
  let current = { ...state, result: settled.result };
  for (const hook of config.reversedHooks) {
    if (!hook.onSettled) continue;
    const onSettled = hook.onSettled.bind(hook);
    const outcome = await runStep(
      (stepSignal) => onSettled(settled, contextFor(state, stepSignal)),
      timeoutMs,
      NEVER_ABORTED,
    );
    if (outcome.kind !== 'value') {
      current = warn(
        current,
        `onSettled hook '${hook.name}' ${failureText(outcome, timeoutMs)}; it was skipped.`,
      );
    }
  }
  if (current.warnings.length === 0) return current;
  // A copy, as the record's result is: the record keeps the warnings it was given.
  return { ...current, result: { ...settled.result, warnings: [...current.warnings] } };
}
