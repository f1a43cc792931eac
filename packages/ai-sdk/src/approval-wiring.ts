import type { Assembly } from '@tool-search/bridge';
import type { ToolCall, ToolDefinition } from '@tool-search/core';
import type { ModelMessage, ToolSet } from 'ai';
import type { NeedsApproval } from './ai-tool.js';
import { finalCalls, modelCall } from './call-resolution.js';
import {
  type ApprovalStatus,
  createBridgeToolApproval,
  type ToolApprovalConfig,
  type ToolApprovalRequest,
  toolNeedsApproval,
} from './tool-approval.js';

/** The AI SDK's approval of a setup, seen through `tool_call`. */
export interface ApprovalWiring {
  /** `tool_call`'s `needsApproval`: asked on every final call it stands for. */
  needsApproval: NeedsApproval;
  /** The setup's `toolApproval` (AI SDK 7). */
  toolApproval: (request: ToolApprovalRequest) => Promise<ApprovalStatus>;
  /** A program's nested call, as the AI SDK's own policy sees a direct call. */
  programCallVerdict: (
    call: ToolCall,
    context: { messages?: readonly unknown[] },
  ) => Promise<ApprovalStatus>;
}

/**
 * The approval side of a setup: every final call of a `tool_call` is asked about (no
 * short cut), each on its real tool with the arguments that will run; one that needs
 * approval makes the call need it. The bridge's resolution is the one execution uses.
 *
 * @param input.tools - the user's tool set (their `needsApproval`)
 * @param input.toolApproval - the user's AI SDK 7 `toolApproval`
 * @param input.assemble - the assembly of a step
 * @param input.toolOf - a tool's definition
 * @param input.routed - the ids of direct calls the repair routed through `tool_call`
 * @returns the wiring
 * @throws `ToolSearchError` `invalid_argument` when `toolApproval` is malformed
 */
export function createApprovalWiring(input: {
  tools: ToolSet;
  toolApproval?: ToolApprovalConfig | undefined;
  assemble: (messages?: readonly ModelMessage[]) => Promise<Assembly>;
  toolOf: (name: string) => ToolDefinition | undefined;
  routed: ReadonlySet<string>;
}): ApprovalWiring {
  const { tools, assemble, toolOf, routed } = input;
  const callsToApprove = async (
    toolCallId: string,
    toolInput: unknown,
    messages?: ModelMessage[],
  ) =>
    finalCalls(
      await assemble(messages),
      modelCall(toolCallId, toolInput, routed.has(toolCallId)),
      toolOf,
    );

  const needsApproval: NeedsApproval = async (toolInput, approvalOptions) => {
    const { toolCallId, messages } = (approvalOptions ?? {}) as {
      toolCallId?: string;
      messages?: ModelMessage[];
    };
    const calls = await callsToApprove(toolCallId ?? '', toolInput, messages);
    let needed = false;
    for (const { call } of calls) {
      if (await toolNeedsApproval(tools, call.name, call.arguments, approvalOptions)) {
        needed = true;
      }
    }
    return needed;
  };

  // It answers what the configuration or a tool's needsApproval answers: a status.
  const toolApproval = createBridgeToolApproval(tools, input.toolApproval, {
    finalCalls: async (toolCall, messages) =>
      (await callsToApprove(toolCall.toolCallId, toolCall.input, messages as ModelMessage[])).map(
        ({ call }) => call,
      ),
  }) as (request: ToolApprovalRequest) => Promise<ApprovalStatus>;

  // The real name and the arguments that will run, with the context of the tool_program call.
  const programCallVerdict = (call: ToolCall, context: { messages?: readonly unknown[] }) =>
    toolApproval({
      toolCall: { toolCallId: call.id ?? '', toolName: call.name, input: call.arguments },
      messages: [...(context.messages ?? [])],
    } as ToolApprovalRequest);
  return { needsApproval, toolApproval, programCallVerdict };
}
