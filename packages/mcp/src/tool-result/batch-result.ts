import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** One call of a `tool_call` batch, as the gateway answers it. */
export interface BatchCallOutcome {
  /** The real tool's name, when the call named one. */
  name: string | undefined;
  /** The MCP result the call would have had on its own. */
  result: CallToolResult;
}

/**
 * The MCP result of a `tool_call` batch: for each call in order, a header line
 * (`Call 2 of 3 (get-sum): ok` or `: error`) followed by the content blocks its own
 * result had. `isError` only when every call failed, so that a model reads the
 * successes of a partly refused batch. `structuredContent` and `_meta` of the
 * single results are not merged: each call's text is in its blocks.
 *
 * @param outcomes - one per call of the batch, in order
 * @returns one `CallToolResult`
 * @throws nothing
 */
export function batchCallResult(outcomes: readonly BatchCallOutcome[]): CallToolResult {
  const content: CallToolResult['content'] = [];
  outcomes.forEach((outcome, index) => {
    const label = outcome.name === undefined ? '' : ` (${outcome.name})`;
    const status = outcome.result.isError === true ? 'error' : 'ok';
    content.push({
      type: 'text',
      text: `Call ${index + 1} of ${outcomes.length}${label}: ${status}`,
    });
    content.push(...outcome.result.content);
  });
  const failed = outcomes.every((outcome) => outcome.result.isError === true);
  return failed ? { isError: true, content } : { content };
}
