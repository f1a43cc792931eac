import { TOOL_CALL, unwrapToolCall } from '@tool-search/bridge';
import type { ToolCall } from '@tool-search/core';
import { ToolSearchError } from '@tool-search/core';
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

/** Options of {@link createBridgeToolApproval}. */
export interface BridgeToolApprovalOptions {
  /**
   * The final calls a `tool_call` call stands for (the real names, the arguments after
   * the bridge's repair), none for a call the bridge refuses. `withToolSearch` passes
   * its own resolution, the one its `execute` runs. Without it, the calls are read from
   * the input as the model wrote it: a single call, or each item of `calls`, unrepaired.
   */
  finalCalls?: (toolCall: ApprovalToolCall, messages: unknown[]) => Promise<readonly ToolCall[]>;
}

type PerToolApproval = (input: unknown, options: Record<string, unknown>) => unknown;
type NeedsApproval = (input: unknown, options: unknown) => unknown;
type Status = { type: string; reason?: string };

/**
 * Asks a real tool's own `needsApproval` (the AI SDK's tool approval) about a call.
 *
 * @param tools - the real tools
 * @param name - the real tool's name
 * @param input - the arguments that will run
 * @param options - what the AI SDK hands `needsApproval` (`toolCallId`, `messages`, ...)
 * @returns whether the call needs approval; false for a tool without `needsApproval`
 * @throws whatever the tool's `needsApproval` throws (the AI SDK then fails the step)
 */
export async function toolNeedsApproval(
  tools: ToolSet,
  name: string,
  input: unknown,
  options: unknown,
): Promise<boolean> {
  const tool = Object.hasOwn(tools, name) ? tools[name] : undefined;
  const needsApproval = (tool as { needsApproval?: boolean | NeedsApproval } | undefined)
    ?.needsApproval;
  if (typeof needsApproval === 'function') {
    return (await needsApproval.call(tool, input, options)) === true;
  }
  return needsApproval === true;
}

function unwrappedCalls(toolCall: ApprovalToolCall): ToolCall[] {
  const inner = unwrapToolCall({
    id: toolCall.toolCallId,
    name: TOOL_CALL,
    arguments: toolCall.input,
  });
  const items = inner.calls ?? [{ name: inner.name, arguments: inner.arguments }];
  return items.map((item) => ({
    name: item.name,
    arguments: (item.arguments ?? {}) as Record<string, unknown>,
  }));
}

/**
 * Reads what a `toolApproval` configuration or function answered.
 *
 * @param status - a status word, `{ type, reason }`, or nothing
 * @returns the status; `user-approval` for something unreadable (ask rather than run)
 * @throws nothing
 */
export function normalizeApprovalStatus(status: unknown): { type: string; reason?: string } {
  if (status === undefined || status === null) return { type: 'not-applicable' };
  if (typeof status === 'string') return { type: status };
  if (typeof status === 'object' && typeof (status as Status).type === 'string') {
    return status as Status;
  }
  // Something we cannot read: ask the user rather than let the call through.
  return { type: 'user-approval' };
}

const RANK: Readonly<Record<string, number>> = {
  'not-applicable': 0,
  approved: 1,
  'user-approval': 2,
  denied: 3,
};

/**
 * What a `toolApproval` function answers (ai 7's `ToolApprovalStatus`), structurally:
 * `undefined`, a status word, or the status with a reason.
 */
export type ApprovalStatus =
  | undefined
  | 'not-applicable'
  | 'approved'
  | 'denied'
  | 'user-approval'
  | { type: 'not-applicable'; reason?: never }
  | { type: 'approved' | 'denied' | 'user-approval'; reason?: string };

/**
 * Wraps an AI SDK 7 `toolApproval` configuration so that it sees through `tool_call`: a
 * call through the bridge is decided as the real calls it stands for, each by the entry
 * of its real name (or by the function, given the real call), with the arguments that
 * will run. Without an entry, the real tool's own `needsApproval` decides, as AI SDK 7
 * itself would for a direct call. A `tool_call` batch is decided as a whole: denied when
 * any of its calls is (the reason names that call), else asked when any needs asking,
 * else approved when any is approved; a call the bridge refuses runs nothing and needs
 * no approval.
 *
 * @param tools - the real tools (for their `needsApproval`)
 * @param config - the configuration as you would give it to `generateText`
 * @param options - see {@link BridgeToolApprovalOptions}
 * @returns a generic `toolApproval` function for `generateText` / `streamText`
 * @throws `ToolSearchError` `invalid_argument` when `config` is neither a function nor an
 * object, or `options.finalCalls` is not a function; the returned function rejects only
 * when your configuration, a tool's `needsApproval` or `options.finalCalls` does (the AI
 * SDK then fails the step, and nothing runs)
 */
export function createBridgeToolApproval(
  tools: ToolSet,
  config: ToolApprovalConfig = {},
  options: BridgeToolApprovalOptions = {},
): (request: ToolApprovalRequest) => Promise<unknown> {
  if (
    typeof config !== 'function' &&
    (typeof config !== 'object' || config === null || Array.isArray(config))
  ) {
    throw new ToolSearchError(
      'invalid_argument',
      'createBridgeToolApproval: toolApproval must be a function or an object of entries per tool name, as generateText takes it.',
      { data: { field: 'toolApproval' } },
    );
  }
  const finalCallsOf = options?.finalCalls;
  if (finalCallsOf !== undefined && typeof finalCallsOf !== 'function') {
    throw new ToolSearchError(
      'invalid_argument',
      'createBridgeToolApproval: options.finalCalls must be a function of the call and the messages, or left out.',
      { data: { field: 'finalCalls' } },
    );
  }
  const decide = async (request: ToolApprovalRequest, call: ToolCall): Promise<unknown> => {
    const toolName = call.name;
    const input = call.arguments;
    const toolCall = { ...request.toolCall, toolName, input };
    if (typeof config === 'function') return config({ ...request, toolCall });
    const entry = Object.hasOwn(config, toolName) ? config[toolName] : undefined;
    const approvalOptions = {
      toolCallId: toolCall.toolCallId,
      messages: request.messages,
      toolContext: (request.toolsContext as Record<string, unknown> | undefined)?.[toolName],
      runtimeContext: request.runtimeContext,
    };
    if (typeof entry === 'function') return (entry as PerToolApproval)(input, approvalOptions);
    if (entry !== undefined && entry !== null) return entry;
    const needed = await toolNeedsApproval(tools, toolName, input, {
      ...approvalOptions,
      context: approvalOptions.toolContext,
    });
    return needed ? 'user-approval' : 'not-applicable';
  };

  return async (request) => {
    const { toolName, input } = request.toolCall;
    if (toolName !== TOOL_CALL) {
      return decide(request, { name: toolName, arguments: input as Record<string, unknown> });
    }
    const calls = finalCallsOf
      ? await finalCallsOf(request.toolCall, request.messages)
      : unwrappedCalls(request.toolCall);
    if (calls.length === 1) return decide(request, calls[0]!);
    let verdict: Status = { type: 'not-applicable' };
    for (const call of calls) {
      const status = normalizeApprovalStatus(await decide(request, call));
      const rank = RANK[status.type] ?? RANK['user-approval']!;
      if (rank > (RANK[verdict.type] ?? 0)) {
        verdict =
          status.type === 'denied'
            ? { type: 'denied', reason: `${call.name}: ${status.reason ?? 'denied'}` }
            : { type: rank === RANK['user-approval'] ? 'user-approval' : status.type };
      }
    }
    return verdict;
  };
}
