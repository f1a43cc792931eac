import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { DispatchResult } from '@tool-search/hooks';
import { errorResult } from './error-result.js';
import { serialisationFailure, tryStringify } from './serialisable-result.js';

/** Whether a value has the shape of an MCP `CallToolResult` (a `content` list). */
export function isCallToolResult(value: unknown): value is CallToolResult {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as { content?: unknown }).content)
  );
}

/** How much of a tool's error text an activity line or audit record keeps. */
const TOOL_ERROR_CHARS = 300;

/**
 * The text of a result the tool answered as an error (`isError: true`): its first text
 * block, bounded; `''` for an error result without text; undefined for anything else.
 */
export function toolErrorText(value: unknown): string | undefined {
  if (!isCallToolResult(value) || value.isError !== true) return undefined;
  const first = value.content[0];
  return first?.type === 'text' ? first.text.slice(0, TOOL_ERROR_CHARS) : '';
}

/** The MCP result of a dispatched call: a tool's own result, or an error result saying why not. */
export function toCallToolResult(result: DispatchResult): CallToolResult {
  switch (result.status) {
    case 'ok': {
      if (isCallToolResult(result.result)) return result.result;
      const json = tryStringify(result.result);
      return json.ok
        ? { content: [{ type: 'text', text: json.text }] }
        : serialisationFailure(result.call.name, json.error);
    }
    case 'denied':
      return errorResult(
        'denied',
        `Denied by ${result.by.kind} '${result.by.name}': ${result.reason}`,
      );
    case 'error':
      return errorResult(result.error.code, result.error.message);
    case 'cancelled':
      return errorResult('cancelled', result.reason);
  }
}

/** Whether a bridge answer is an error answer (`{ error }`). */
export function isBridgeError(answer: unknown): answer is { error: string } {
  return typeof answer === 'object' && answer !== null && 'error' in answer;
}

/** The MCP result of a `tool_search` or `tool_describe` answer (`isError` for an error answer). */
export function bridgeAnswerResult(name: string, answer: unknown): CallToolResult {
  const json = tryStringify(answer);
  if (!json.ok) return serialisationFailure(name, json.error);
  const text = json.text;
  return isBridgeError(answer)
    ? { isError: true, content: [{ type: 'text', text }] }
    : { content: [{ type: 'text', text }] };
}
