import { ToolSearchError } from '@tool-search/core';
import { isRecord } from '@tool-search/core/internal';

// Anthropic's error codes of append-only tool loading, and ours for the same failure.
const CODES = {
  tool_name_conflict: 'duplicate_tool_name',
  tool_reference_unresolved: 'unknown_tool',
} as const;

function errorCodeOf(error: unknown): string | undefined {
  if (!isRecord(error)) return undefined;
  if (typeof error['errorCode'] === 'string') return error['errorCode'];
  // The raw body, `{ error: { details: { error_code } } }`, when no SDK read it.
  const body = isRecord(error['error']) ? error['error'] : error;
  const inner = isRecord(body['error']) ? body['error'] : body;
  const details = isRecord(inner['details']) ? inner['details'] : undefined;
  return typeof details?.['error_code'] === 'string' ? details['error_code'] : undefined;
}

/**
 * Our error for an Anthropic API error of append-only tool loading: `tool_name_conflict`
 * (a tool added in `messages` takes a name another tool holds) becomes
 * `duplicate_tool_name`, and `tool_reference_unresolved` (a `tool_addition`,
 * `tool_removal` or `tool_reference` names a tool not defined at that point) becomes
 * `unknown_tool`, with the SDK's error (its `errorCode`) as `cause`. Reads `errorCode` of the SDK's `APIError` (`@anthropic-ai/sdk` 1.17) or the
 * raw body's `error.details.error_code`.
 *
 * @example
 * ```ts
 * try { await client.beta.messages.create(request); }
 * catch (error) { throw toolSearchErrorFromAnthropic(error) ?? error; }
 * ```
 *
 * @param error - what the SDK threw, or an error body
 * @returns the `ToolSearchError`, or `undefined` for any other error
 * @throws nothing
 */
export function toolSearchErrorFromAnthropic(error: unknown): ToolSearchError | undefined {
  const providerCode = errorCodeOf(error);
  if (providerCode !== 'tool_name_conflict' && providerCode !== 'tool_reference_unresolved') {
    return undefined;
  }
  const message =
    providerCode === 'tool_name_conflict'
      ? 'Anthropic refused a tool added in messages: its name is taken by another tool of the conversation (tool_name_conflict). Give it a name of its own, or remove the other first.'
      : 'Anthropic refused a tool change or reference naming a tool that is not defined at that point of the conversation (tool_reference_unresolved). Add the tool before referring to it.';
  return new ToolSearchError(CODES[providerCode], message, { cause: error });
}
