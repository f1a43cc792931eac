import type { ToolCall } from '@tool-search/core';
import type { PreparedTools } from './plan.js';
import { renderToolOutcome } from './tool-outcome.js';

/** The tool result of a tool call (`Anthropic.ToolResultBlockParam`). */
export interface AnthropicToolResult {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
  is_error?: boolean;
}

/**
 * The call a `tool_use` block stands for, in the session's names: the name mapped back
 * with `prepared.names`, the input as the arguments. Dispatch it as usual.
 *
 * @param prepared - the preparation of the request the block came from
 * @param toolUse - the `tool_use` block (`id`, `name`, `input`)
 * @returns the call, `{ id, name, arguments }`
 * @throws nothing (an input that is not an object becomes `{}`, as the bridge reads it)
 */
export function toolCallFromAnthropic(
  prepared: Pick<PreparedTools<unknown>, 'names'>,
  toolUse: { id: string; name: string; input: unknown },
): ToolCall {
  const input = toolUse.input;
  return {
    id: toolUse.id,
    name: prepared.names.fromProvider(toolUse.name) ?? toolUse.name,
    arguments:
      typeof input === 'object' && input !== null && !Array.isArray(input)
        ? (input as Record<string, unknown>)
        : {},
  };
}

/**
 * The `tool_result` block for what a tool call came to, in every mode: a dispatcher
 * outcome (`DispatchResult` of `@tool-search/hooks`) gives the tool's result alone, or
 * the refusal with `is_error: true` (denied, failed, cancelled); a bridge answer
 * (`handleBridgeCall`, `bridge` mode) gives its content, a refusal with `is_error: true`.
 * The call's arguments are never echoed back.
 *
 * @example
 * ```ts
 * results.push(toAnthropicToolResult(block.id, await dispatch(toolCallFromAnthropic(prepared, block))));
 * ```
 *
 * @param toolUseId - the `tool_use` block's `id`
 * @param outcome - what the dispatcher or the bridge answered
 * @returns the `tool_result` block for the next user message
 * @throws nothing
 */
export function toAnthropicToolResult(toolUseId: string, outcome: unknown): AnthropicToolResult {
  const { text, isError } = renderToolOutcome(outcome);
  const result: AnthropicToolResult = {
    type: 'tool_result',
    tool_use_id: toolUseId,
    content: text,
  };
  if (isError) result.is_error = true;
  return result;
}
