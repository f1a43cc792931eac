import { TOOL_CALL, unwrapToolCall } from '@tool-search/bridge';

/** One tool call as an activity view shows it: the real tool and its real arguments. */
export interface RealToolCall {
  /** The AI SDK's id of the call. */
  toolCallId: string;
  /** The real tool's name (`tool_call` only when the wrapped name is missing). */
  toolName: string;
  /** The real arguments. */
  input: unknown;
  /** `'bridge'` when the model went through `tool_call`, else `'direct'`. */
  via: 'bridge' | 'direct';
}

/**
 * The real tools behind the tool calls of a step, a stream part or a UI message part,
 * for an activity view: a call of `tool_call` shows as the tool it wraps, with its
 * arguments; any other call as it is.
 *
 * @example
 * ```ts
 * for (const step of result.steps) for (const call of realToolCalls(step.toolCalls)) log(call.toolName);
 * ```
 *
 * @param calls - tool calls or tool-call parts (`{ toolCallId, toolName, input }`); others are skipped
 * @returns one entry per call, in order
 * @throws nothing
 */
export function realToolCalls(calls: readonly unknown[]): RealToolCall[] {
  const result: RealToolCall[] = [];
  for (const call of calls) {
    if (typeof call !== 'object' || call === null) continue;
    const { toolCallId, toolName, input } = call as Record<string, unknown>;
    if (typeof toolCallId !== 'string' || typeof toolName !== 'string') continue;
    if (toolName !== TOOL_CALL) {
      result.push({ toolCallId, toolName, input, via: 'direct' });
      continue;
    }
    const inner = unwrapToolCall({ name: TOOL_CALL, arguments: input });
    result.push({
      toolCallId,
      toolName: inner.name,
      input: inner.arguments,
      via: inner.viaBridge ? 'bridge' : 'direct',
    });
  }
  return result;
}
