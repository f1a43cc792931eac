import { TOOL_CALL, unwrapToolCall } from '@tool-search/bridge';
import type { ToolSet } from 'ai';

/** A tool call as AI SDK 7 hands it to `toolApproval`: the fields this adapter reads. */
export interface ApprovalToolCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
}

/** What AI SDK 7 hands a generic `toolApproval` function. */
export interface ToolApprovalRequest {
  toolCall: ApprovalToolCall;
  messages: unknown[];
  toolsContext?: unknown;
  runtimeContext?: unknown;
}

/**
 * AI SDK 7's `toolApproval` of `generateText` / `streamText`: a function of the call, or
 * a status (`'not-applicable' | 'approved' | 'denied' | 'user-approval'`, or
 * `{ type, reason }`) or a function of the input per tool name.
 */
export type ToolApprovalConfig =
  | ((request: ToolApprovalRequest) => unknown)
  | Readonly<Record<string, unknown>>;

type PerToolApproval = (input: unknown, options: Record<string, unknown>) => unknown;
type NeedsApproval = (input: unknown, options: Record<string, unknown>) => unknown;

/**
 * Wraps an AI SDK 7 `toolApproval` configuration so that it sees through `tool_call`: a
 * call of a deferred tool through the bridge is decided as a call of the real tool, with
 * its real arguments, by the entry of its real name (or by the function, given the
 * unwrapped call). Without an entry, the real tool's own `needsApproval` decides, as AI
 * SDK 7 itself would for a direct call.
 *
 * @param tools - the real tools (for their `needsApproval`)
 * @param config - the configuration as you would give it to `generateText`
 * @returns a generic `toolApproval` function for `generateText` / `streamText`
 * @throws nothing; the returned function rejects only when your configuration does
 */
export function createBridgeToolApproval(
  tools: ToolSet,
  config: ToolApprovalConfig = {},
): (request: ToolApprovalRequest) => Promise<unknown> {
  return async (request) => {
    let { toolName, input } = request.toolCall;
    if (toolName === TOOL_CALL) {
      const inner = unwrapToolCall({ name: TOOL_CALL, arguments: input });
      toolName = inner.name;
      input = inner.arguments;
    }
    const toolCall = { ...request.toolCall, toolName, input };
    if (typeof config === 'function') return config({ ...request, toolCall });
    const entry = Object.hasOwn(config, toolName) ? config[toolName] : undefined;
    const options = {
      toolCallId: toolCall.toolCallId,
      messages: request.messages,
      toolContext: (request.toolsContext as Record<string, unknown> | undefined)?.[toolName],
      runtimeContext: request.runtimeContext,
    };
    if (typeof entry === 'function') return (entry as PerToolApproval)(input, options);
    if (entry !== undefined && entry !== null) return entry;
    const tool = Object.hasOwn(tools, toolName) ? tools[toolName] : undefined;
    const needsApproval = (tool as { needsApproval?: boolean | NeedsApproval } | undefined)
      ?.needsApproval;
    const needed =
      typeof needsApproval === 'function'
        ? await needsApproval.call(tool, input, { ...options, context: options.toolContext })
        : needsApproval === true;
    return needed ? 'user-approval' : 'not-applicable';
  };
}
