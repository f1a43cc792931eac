import type { Assembly } from '@tool-search/bridge';
import { BRIDGE_TOOL_NAMES, TOOL_CALL } from '@tool-search/bridge';
import { ToolSearchError } from '@tool-search/core';
import type { ModelMessage } from 'ai';
import { NoSuchToolError } from 'ai';
import { inactiveBridgeError } from './decision-report.js';
import type { RepairToolCall } from './setup-types.js';

const ROUTED_MEMO = 1_000;

function parsedInput(input: string): unknown {
  if (input.trim() === '') return {};
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}

/**
 * The setup's `repairToolCall`: a direct call of a deferred tool (which the AI SDK
 * rejects with `AI_NoSuchToolError`, the tool not being among the step's tools) becomes
 * a `tool_call` call, remembered in `routed` so that `tool_call` runs it as the direct
 * call it is. A bridge tool called while tool search is inactive is refused with a
 * `ToolSearchError` `tool_search_inactive` naming the reason, which the AI SDK hands the
 * model as the call's error. Anything else goes to the user's own repair.
 *
 * @param input.assemble - the assembly of a step
 * @param input.routed - the ids of the routed calls
 * @param input.userRepair - the user's own repair
 * @returns the repair
 * @throws nothing itself; the repair throws `ToolSearchError` `tool_search_inactive` as
 * described
 */
export function createRepairRouting(input: {
  assemble: (messages?: readonly ModelMessage[]) => Promise<Assembly>;
  routed: Set<string>;
  userRepair?: RepairToolCall;
}): RepairToolCall {
  const { assemble, routed, userRepair } = input;
  return async (repair) => {
    const { toolCall, error } = repair;
    const passOn = () => (userRepair ? userRepair(repair) : Promise.resolve(null));
    if (!NoSuchToolError.isInstance(error)) return passOn();
    const assembly = await assemble(repair.messages);
    if (!assembly.activated) {
      if (!BRIDGE_TOOL_NAMES.has(toolCall.toolName)) return passOn();
      const { decision } = assembly;
      throw new ToolSearchError(
        'tool_search_inactive',
        inactiveBridgeError(toolCall.toolName, decision),
        { data: { tool: toolCall.toolName } },
      );
    }
    if (toolCall.toolName === TOOL_CALL) return passOn();
    if (routed.size >= ROUTED_MEMO) routed.delete(routed.values().next().value!);
    routed.add(toolCall.toolCallId);
    return {
      ...toolCall,
      toolName: TOOL_CALL,
      input: JSON.stringify({ name: toolCall.toolName, arguments: parsedInput(toolCall.input) }),
    };
  };
}
