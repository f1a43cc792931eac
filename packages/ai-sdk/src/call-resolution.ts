import type { Assembly, BridgeErrorResult } from '@tool-search/bridge';
import {
  bridgeErrors,
  createBridgeTelemetry,
  handleBridgeCall,
  isBridgeToolName,
  TOOL_CALL,
  unwrapToolCall,
} from '@tool-search/bridge';
import type { ToolCall, ToolDefinition } from '@tool-search/core';
import { validateArguments } from '@tool-search/core/validate';

/** How a final call came: through `tool_call`, or by the tool's own name. */
export type FinalCallRoute = 'bridge' | 'direct';

/** What the adapter knows about a final call besides its name and arguments. */
export interface FinalCallContext {
  /** How the model called it. */
  via: FinalCallRoute;
  /** The tool's definition, when the session has one. */
  tool?: ToolDefinition;
}

/** One final call: the real tool's name and the arguments that run. */
export interface FinalCall {
  call: ToolCall;
  context: FinalCallContext;
}

/** Runs (or records) one final call. */
export type RunFinalCall<R> = (call: ToolCall, context: FinalCallContext) => Promise<R>;

/**
 * The call as the adapter resolves it, from what the AI SDK hands `tool_call`'s `execute`
 * or `needsApproval`: the `tool_call` call itself, or, for a direct call of a deferred
 * tool that `repairToolCall` turned into `tool_call`, the direct call it stands for.
 *
 * @param toolCallId - the AI SDK's id of the call
 * @param input - the input of `tool_call`
 * @param routed - whether `repairToolCall` routed a direct call of a deferred tool here
 * @returns the call to resolve
 * @throws nothing
 */
export function modelCall(toolCallId: string, input: unknown, routed: boolean): ToolCall {
  if (routed) {
    const inner = unwrapToolCall({ name: TOOL_CALL, arguments: input });
    return { id: toolCallId, name: inner.name, arguments: inner.arguments as never };
  }
  return { id: toolCallId, name: TOOL_CALL, arguments: input as never };
}

/**
 * Answers a model's call of a bridge tool or a routed direct call: every final call (the
 * real name, the arguments after the bridge's repair) goes to `run`, once per call, in
 * order; refusals are answered as data and never reach `run`. The one resolution both
 * approval (with a `run` that records) and execution (with a `run` that dispatches) use,
 * so that a call runs with exactly the arguments it was approved on.
 *
 * @param assembly - the assembly of the step
 * @param call - the model's call (see {@link modelCall})
 * @param run - runs or records a final call
 * @param toolOf - the definition of a tool by name
 * @returns the answer for the model
 * @throws nothing of its own; rejects when `run` does for a single call
 */
export async function answerModelCall<R>(
  assembly: Assembly,
  call: ToolCall,
  run: RunFinalCall<R>,
  toolOf: (name: string) => ToolDefinition | undefined,
  succeeded?: (result: unknown) => boolean,
): Promise<unknown> {
  const inner = unwrapToolCall(call);
  const context = (via: FinalCallRoute, name: string): FinalCallContext => {
    const tool = toolOf(name);
    return tool ? { via, tool } : { via };
  };
  const loaded =
    call.name === TOOL_CALL &&
    !isBridgeToolName(inner.name) &&
    assembly.tools.some((tool) => tool.name === inner.name) &&
    typeof inner.arguments === 'object' &&
    inner.arguments !== null &&
    !Array.isArray(inner.arguments);
  if (loaded) {
    // A tool the model loaded is in its tools now; a call of it through tool_call is
    // still the model's call of that tool, not a mistake to refuse. Its arguments are
    // checked and repaired as the bridge does a deferred tool's, so that the same call
    // runs with the same arguments whether the tool counts as loaded or not (the
    // messages an approval was asked on may differ from those it runs with).
    const checked = checkLoadedArguments(
      inner.name,
      toolOf(inner.name),
      inner.arguments as Record<string, unknown>,
    );
    if (!checked.ok) return checked.refusal;
    const result = await run(
      { ...idOf(call), name: inner.name, arguments: checked.arguments },
      context('bridge', inner.name),
    );
    // The bridge did not dispatch it: the session's learning hears of it here.
    assembly.learning?.recordCall(inner.name, succeeded?.(result) ?? true);
    return result;
  }
  const via: FinalCallRoute = call.name === TOOL_CALL ? 'bridge' : 'direct';
  const answer = handleBridgeCall(
    assembly,
    call,
    (real, bridged) => run(real, bridged.tool ? { via, tool: bridged.tool } : { via }),
    { refuseUnknownNames: true, ...(succeeded ? { succeeded } : {}) },
  );
  // A name the bridge leaves to the runtime is a visible tool called directly (one the
  // model loaded among them: the session's learning hears of it).
  if (answer !== undefined) return answer;
  const result = await run(
    {
      ...idOf(call),
      name: inner.name,
      arguments: (inner.arguments ?? {}) as Record<string, unknown>,
    },
    context('direct', inner.name),
  );
  assembly.learning?.recordCall(inner.name, succeeded?.(result) ?? true);
  return result;
}

function checkLoadedArguments(
  name: string,
  tool: ToolDefinition | undefined,
  args: Record<string, unknown>,
): { ok: true; arguments: Record<string, unknown> } | { ok: false; refusal: BridgeErrorResult } {
  if (tool === undefined) return { ok: true, arguments: args };
  const checked = validateArguments(tool.inputSchema, args);
  if (checked.status === 'valid') return { ok: true, arguments: checked.arguments };
  // A schema that cannot be checked fails open, as the bridge's does.
  if (checked.status === 'unchecked') return { ok: true, arguments: args };
  return {
    ok: false,
    refusal: {
      error: bridgeErrors.invalidArguments(name, checked.violations, checked.total),
      code: 'invalid_arguments',
      name,
      parameters: tool.inputSchema,
      violations: checked.violations,
    },
  };
}

function idOf(call: ToolCall): { id?: string } {
  return call.id !== undefined ? { id: call.id } : {};
}

/**
 * The final calls a model's call stands for, without running anything: what
 * {@link answerModelCall} would hand its `run`, in the same order, with the same
 * arguments. A refused call stands for none. The assembly's telemetry is left alone.
 *
 * @param assembly - the assembly of the step
 * @param call - the model's call (see {@link modelCall})
 * @param toolOf - the definition of a tool by name
 * @returns the final calls
 * @throws nothing
 */
export async function finalCalls(
  assembly: Assembly,
  call: ToolCall,
  toolOf: (name: string) => ToolDefinition | undefined,
): Promise<FinalCall[]> {
  const calls: FinalCall[] = [];
  // A question is not a call: the session's counters count the calls that run, and its
  // learning records only those that ran and succeeded.
  const { learning: _learning, ...rest } = assembly;
  const quiet: Assembly = { ...rest, telemetry: createBridgeTelemetry() };
  await answerModelCall(
    quiet,
    call,
    async (real, context) => {
      calls.push({ call: real, context });
      return undefined;
    },
    toolOf,
  );
  return calls;
}
