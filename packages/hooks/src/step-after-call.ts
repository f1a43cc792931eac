import type { Promisable } from '@tool-search/core';
import { isRecord } from '@tool-search/core/internal';
import { type CallState, cancel, contextFor, warn } from './call-state.js';
import { failureText } from './dispatch-errors.js';
import type { DispatchConfig } from './dispatch-input.js';
import { runStep } from './run-step.js';
import type { ToolCallHook } from './types.js';

type AfterPhase = 'afterCall' | 'onError';

/**
 * Runs the hooks of one phase in reverse order; a hook that fails or runs out of time
 * is skipped and named in the warnings.
 *
 * @returns the state with the warnings, and whether every hook was reached (false
 * when the caller's signal aborted)
 */
async function runPhase(
  state: CallState,
  config: Pick<DispatchConfig, 'reversedHooks' | 'timeouts'>,
  phase: AfterPhase,
  run: (hook: ToolCallHook, stepSignal: AbortSignal) => Promisable<unknown> | undefined,
  onValue?: (hook: ToolCallHook, value: unknown, state: CallState) => CallState,
): Promise<{ state: CallState; completed: boolean }> {
  const timeoutMs = config.timeouts.hook;
  let current = state;
  for (const hook of config.reversedHooks) {
    if (!hook[phase]) continue;
    const outcome = await runStep((stepSignal) => run(hook, stepSignal), timeoutMs, state.signal);
    if (outcome.kind === 'aborted') return { state: current, completed: false };
    if (outcome.kind === 'value') {
      if (onValue) current = onValue(hook, outcome.value, current);
    } else {
      current = warn(
        current,
        `${phase} hook '${hook.name}' ${failureText(outcome, timeoutMs)}; it was skipped.`,
      );
    }
  }
  return { state: current, completed: true };
}

/**
 * Turns the execution into the call's result. After a value, the `afterCall` hooks run
 * in reverse order, each seeing the previous replacement and able to replace the
 * result; after a failure, the `onError` hooks run in reverse order. A hook that fails
 * is skipped and named in `warnings`: it never loses the result.
 *
 * @param state - the call's state after {@link runExecute}
 * @param config - the hooks in reverse order and `timeouts.hook`
 * @returns an `ok` or `error` state, or a cancelled one when the caller's signal
 * aborted before every hook ran (so that a result never skips its redaction or
 * truncation); unchanged when there was no execution
 * @throws nothing
 */
export async function runAfterHooks(
  state: CallState,
  config: Pick<DispatchConfig, 'reversedHooks' | 'timeouts'>,
): Promise<CallState> {
  const { call, execution } = state;
  if (!execution) return state;
  if (execution.kind === 'value') {
    let result = execution.value;
    const after = await runPhase(
      state,
      config,
      'afterCall',
      (hook, stepSignal) => hook.afterCall?.(call, result, contextFor(state, stepSignal)),
      (hook, value, current) => {
        if (value === undefined || value === null) return current;
        if (isRecord(value) && 'result' in value) {
          result = value.result;
          return current;
        }
        return warn(
          current,
          `afterCall hook '${hook.name}' answered something unknown; it was ignored.`,
        );
      },
    );
    if (!after.completed) return cancel(after.state, 'after it ran');
    return { ...after.state, result: { status: 'ok', call, result } };
  }
  const { thrown, error } = execution;
  const after = await runPhase(state, config, 'onError', (hook, stepSignal) =>
    hook.onError?.(call, thrown, contextFor(state, stepSignal)),
  );
  if (!after.completed) return cancel(after.state, 'after it failed');
  return { ...after.state, result: { status: 'error', call, error } };
}
