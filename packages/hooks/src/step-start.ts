import type { ToolDefinition } from '@tool-search/core';
import { describeError } from '@tool-search/core/internal';
import { type CallState, cancel, fail, type SettledCallState } from './call-state.js';
import type { DispatchConfig } from './dispatch-input.js';

/**
 * Finds the definition of the tool a call names: through `resolveTool`, or else the
 * caller's `ctx.tool` when it has that very name.
 *
 * @param state - the call's state (a failure reports its current call)
 * @param config - `resolveTool`
 * @param name - the tool's name
 * @returns the definition (or `undefined` when unknown), or a `tool_lookup_failed`
 * error state when `resolveTool` threw
 * @throws nothing
 */
export function lookUpTool(
  state: CallState,
  config: Pick<DispatchConfig, 'resolveTool'>,
  name: string,
): { tool: ToolDefinition | undefined } | { failure: SettledCallState } {
  const { resolveTool } = config;
  const given = state.context.tool;
  if (!resolveTool) return { tool: given?.name === name ? given : undefined };
  try {
    return { tool: resolveTool(name) };
  } catch (error) {
    return {
      failure: fail(
        state,
        'tool_lookup_failed',
        `Could not look up the tool '${name}': ${describeError(error)}. It was not called.`,
        error,
      ),
    };
  }
}

/**
 * The first step: a malformed call is an `invalid_argument` error, a call whose signal
 * already aborted is cancelled, and a call without `ctx.tool` gets its definition from
 * `resolveTool`.
 *
 * @param state - a fresh state
 * @param config - `resolveTool`
 * @returns the next state, settled when the call cannot go on
 * @throws nothing
 */
export async function checkCall(
  state: CallState,
  config: Pick<DispatchConfig, 'resolveTool'>,
): Promise<CallState> {
  if ('problem' in state.requested) {
    return fail(state, 'invalid_argument', `Malformed tool call: ${state.requested.problem}.`);
  }
  if (state.signal.aborted) return cancel(state, 'before it ran');
  if (state.tool || !config.resolveTool) return state;
  const found = lookUpTool(state, config, state.call.name);
  return 'failure' in found ? found.failure : { ...state, tool: found.tool };
}
