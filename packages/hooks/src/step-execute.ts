import { ToolSearchError } from '@tool-search/core';
import { describeError } from '@tool-search/core/internal';
import { type CallState, cancel, contextFor } from './call-state.js';
import { dispatchError } from './dispatch-errors.js';
import type { DispatchConfig } from './dispatch-input.js';
import { runStep } from './run-step.js';

/**
 * Runs the tool with a signal that aborts when the caller cancels or
 * `timeouts.execute` runs out. A throw or a timeout is not a decision yet: it is kept
 * in `execution` for the `onError` hooks, as a value is for the `afterCall` hooks.
 *
 * @param state - the call's state after the approval
 * @param config - `execute` and `timeouts.execute`
 * @returns the state with `executed` and `execution` set, or a cancelled state (with
 * `executed` false when the signal aborted before the tool started)
 * @throws nothing
 */
export async function runExecute(
  state: CallState,
  config: Pick<DispatchConfig, 'execute' | 'timeouts'>,
): Promise<CallState> {
  if (state.signal.aborted) return cancel(state, 'before it ran');
  const started: CallState = { ...state, executed: true };
  const { call } = started;
  const timeoutMs = config.timeouts.execute;
  const outcome = await runStep(
    (stepSignal) => config.execute(call, contextFor(started, stepSignal)),
    timeoutMs,
    started.signal,
  );
  if (outcome.kind === 'aborted') return cancel(started, 'while it ran');
  if (outcome.kind === 'value') {
    return { ...started, execution: { kind: 'value', value: outcome.value } };
  }
  if (outcome.kind === 'thrown') {
    const thrown = outcome.error;
    const error = dispatchError(
      ToolSearchError.isInstance(thrown) ? thrown.code : 'tool_failed',
      `Tool '${call.name}' failed: ${describeError(thrown)}`,
      thrown,
    );
    return { ...started, execution: { kind: 'failed', thrown, error } };
  }
  const thrown = new ToolSearchError(
    'tool_timeout',
    `Tool '${call.name}' did not finish within ${timeoutMs} ms and was aborted.`,
    { data: { tool: call.name, timeoutMs } },
  );
  const error = dispatchError('tool_timeout', describeError(thrown), thrown);
  return { ...started, execution: { kind: 'failed', thrown, error } };
}
