import type { ProgramPolicy } from '@tool-search/code';
import { TOOL_PROGRAM } from '@tool-search/code';
import { isBridgeToolName } from '@tool-search/core/internal';
import type { ToolSet } from 'ai';
import type { AiSdkDispatchOptions } from './call-dispatch.js';
import type { ProgramApproval } from './program-approval.js';
import { isFunctionTool } from './tool-set-definitions.js';

/** AI SDK 7's caller name for a call the model makes itself. */
const DIRECT_TOOL_CALL = 'AI_SDK_DIRECT_TOOL_CALL';

/**
 * The dispatch options once programs are on: the program policy first among the
 * guardrails and the AI SDK's approval policy for programs' calls last, and the approval
 * step that asks about the calls it sends to the user (see `createProgramApproval`).
 *
 * @param options - the setup's dispatch options
 * @param policy - the program policy
 * @param approval - the AI SDK's approval policy for programs' calls
 * @returns the options for the setup's dispatcher
 * @throws nothing
 */
export function programDispatchOptions(
  options: AiSdkDispatchOptions,
  policy: ProgramPolicy,
  approval: ProgramApproval,
): AiSdkDispatchOptions {
  return {
    ...options,
    guardrails: [policy, ...(options.guardrails ?? []), approval.guardrail],
    approval: approval.approval,
  };
}

/**
 * AI SDK 7's `experimental_toolCallers` for a setup's tools: each tool with an `execute`
 * may be called directly and by `tool_program`.
 *
 * @param tools - the setup's tool set
 * @returns the callers per tool name
 * @throws nothing
 */
export function toolCallersOf(tools: ToolSet): Record<string, readonly string[]> {
  const callers: Record<string, readonly string[]> = {};
  for (const [name, tool] of Object.entries(tools)) {
    if (name === TOOL_PROGRAM || isBridgeToolName(name)) continue;
    if (!isFunctionTool(tool) || typeof tool.execute !== 'function') continue;
    callers[name] = [DIRECT_TOOL_CALL, TOOL_PROGRAM];
  }
  return callers;
}
