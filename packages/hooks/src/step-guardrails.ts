import { isRecord } from '@tool-search/core/internal';
import { type CallState, cancel, contextFor, deny } from './call-state.js';
import { failureText } from './dispatch-errors.js';
import type { DispatchConfig } from './dispatch-input.js';
import { runStep } from './run-step.js';
import type { DeniedBy } from './types.js';

/**
 * Checks the current call against the guardrails, in order. The first refusal denies;
 * a guardrail that throws, rejects, answers something other than a verdict or runs out
 * of time denies too (guardrails fail closed).
 *
 * @param state - the call's state
 * @param config - the guardrails and `timeouts.guardrail`
 * @returns the state unchanged when every guardrail allowed the call, else a denied
 * (or, when the caller's signal aborted, cancelled) state
 * @throws nothing
 */
export async function runGuardrails(
  state: CallState,
  config: Pick<DispatchConfig, 'guardrails' | 'timeouts'>,
): Promise<CallState> {
  const { call } = state;
  const timeoutMs = config.timeouts.guardrail;
  for (const guardrail of config.guardrails) {
    const outcome = await runStep(
      (stepSignal) => guardrail.check(call, contextFor(state, stepSignal)),
      timeoutMs,
      state.signal,
    );
    if (outcome.kind === 'aborted') return cancel(state, 'before it ran');
    const by: DeniedBy = { kind: 'guardrail', name: guardrail.name };
    if (outcome.kind === 'value' && isRecord(outcome.value)) {
      if (outcome.value.allow === true) continue;
      if (outcome.value.allow === false) {
        const reason = outcome.value.reason;
        return deny(
          state,
          by,
          typeof reason === 'string' && reason.length > 0
            ? reason
            : `Guardrail '${guardrail.name}' denied the call to '${call.name}'.`,
        );
      }
    }
    return deny(
      state,
      by,
      `Guardrail '${guardrail.name}' ${failureText(outcome, timeoutMs)}, so the call to '${call.name}' is denied (guardrails fail closed).`,
    );
  }
  return state;
}

/**
 * Checks the final call against the guardrails again when a `beforeCall` hook rewrote
 * it, so that a rewrite cannot carry a call past them.
 *
 * @param state - the call's state after the `beforeCall` hooks
 * @param config - the guardrails and `timeouts.guardrail`
 * @returns the state unchanged when nothing was rewritten or every guardrail allowed
 * the final call, else a denied or cancelled state
 * @throws nothing
 */
export async function recheckGuardrails(
  state: CallState,
  config: Pick<DispatchConfig, 'guardrails' | 'timeouts'>,
): Promise<CallState> {
  return state.rewritten ? runGuardrails(state, config) : state;
}
