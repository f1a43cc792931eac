import type { Assembly } from '@tool-search/bridge';
import { createBridgeTools, TOOL_CALL, TOOL_DESCRIBE, TOOL_SEARCH } from '@tool-search/bridge';
import type { ToolCall, ToolDefinition } from '@tool-search/core';
import type { Dispatcher } from '@tool-search/hooks';
import type { ModelMessage, Tool, ToolSet } from 'ai';
import { type NeedsApproval, ownTool } from './ai-tool.js';
import {
  type AiSdkCallContext,
  type AiSdkExecutionOptions,
  dispatchForModel,
} from './call-dispatch.js';
import { answerModelCall, modelCall } from './call-resolution.js';
import { inactiveBridgeError } from './decision-report.js';
import { compactSearchAnswer } from './search-answer.js';
import { isFunctionTool } from './tool-set-definitions.js';

/** What the session's tools share with the rest of the setup. */
export interface SessionToolsInput {
  /** The user's tool set. */
  tools: ToolSet;
  dispatch: Dispatcher<AiSdkCallContext>;
  assemble: (messages?: readonly ModelMessage[]) => Promise<Assembly>;
  toolOf: (name: string) => ToolDefinition | undefined;
  /** Told of every tool run (the setup's wiring check). */
  onRun: () => void;
  /** Ids of direct calls of deferred tools that the repair routed through `tool_call`. */
  routed: Set<string>;
  /** The outputs of denied and failed calls: learning must not count them as successes. */
  failures: WeakSet<object>;
  /** The AI SDK's approval of a `tool_call` call, on the real calls it stands for. */
  needsApproval: NeedsApproval;
  sessionId?: string;
}

/**
 * The tool set the model is given: each function tool's `execute` through the dispatcher
 * (direct calls), and `tool_search`, `tool_describe` and `tool_call` answered by the
 * bridge on the step's assembly. A bridge tool called while tool search is inactive
 * answers an error naming the reason and telling the model to call tools directly.
 *
 * @param input - see {@link SessionToolsInput}
 * @returns the tool set, the user's tools first, then the bridge tools
 * @throws nothing
 */
export function createSessionTools(input: SessionToolsInput): ToolSet {
  const { tools, dispatch, assemble, toolOf, failures } = input;
  const session = input.sessionId !== undefined ? { sessionId: input.sessionId } : {};
  const succeeded = (output: unknown) =>
    typeof output !== 'object' || output === null || !failures.has(output);
  const toolContext = (name: string) => {
    const tool = toolOf(name);
    return tool ? { tool } : {};
  };
  // Approval and execution resolve a call the same way: the assembly of the same
  // messages, the same bridge resolution and repair. Only `run` differs.
  const answer = async (call: ToolCall, execution: AiSdkExecutionOptions) => {
    input.onRun();
    const assembly = await assemble(execution.messages);
    if (!assembly.activated) {
      return {
        error: inactiveBridgeError(call.name, assembly.decision),
        reason: assembly.decision.reason,
      };
    }
    return answerModelCall(
      assembly,
      call,
      (real, extra) =>
        dispatchForModel(dispatch, real, execution, { ...session, ...extra }, failures),
      toolOf,
      succeeded,
    );
  };

  const result: ToolSet = {};
  for (const [name, tool] of Object.entries(tools)) {
    if (!isFunctionTool(tool) || typeof tool.execute !== 'function') {
      result[name] = tool;
      continue;
    }
    result[name] = {
      ...(tool as object),
      execute: async (toolInput: unknown, execution: AiSdkExecutionOptions) => {
        input.onRun();
        const assembly = await assemble(execution.messages);
        const output = await dispatchForModel(
          dispatch,
          {
            id: execution.toolCallId,
            name,
            arguments: (toolInput ?? {}) as Record<string, unknown>,
          },
          execution,
          { ...session, via: 'direct', ...toolContext(name) },
          failures,
        );
        // A tool the model loaded and called by its name: the session's learning hears of it.
        assembly.learning?.recordCall(name, succeeded(output));
        return output;
      },
    } as unknown as Tool;
  }

  const [search, describe, call] = createBridgeTools({ stableDescriptions: true }) as [
    ToolDefinition,
    ToolDefinition,
    ToolDefinition,
  ];
  const bridgeCall = (name: string, toolInput: unknown, execution: AiSdkExecutionOptions) =>
    answer({ id: execution.toolCallId, name, arguments: toolInput as never }, execution);
  result[TOOL_SEARCH] = ownTool(search, async (toolInput, execution) =>
    compactSearchAnswer(await bridgeCall(TOOL_SEARCH, toolInput, execution)),
  );
  result[TOOL_DESCRIBE] = ownTool(describe, (toolInput, execution) =>
    bridgeCall(TOOL_DESCRIBE, toolInput, execution),
  );
  result[TOOL_CALL] = ownTool(
    call,
    (toolInput, execution) =>
      answer(
        modelCall(execution.toolCallId, toolInput, input.routed.delete(execution.toolCallId)),
        execution,
      ),
    input.needsApproval,
  );
  return result;
}
