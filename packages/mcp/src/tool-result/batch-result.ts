import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isToolSearchErrorCode, type ToolSearchErrorCode } from '@tool-search/core';
import { isMcpErrorCode } from '../errors.js';
import { UPSTREAM_ERROR_META_KEY } from './error-result.js';

/**
 * The `_meta` key of a `tool_call` batch result that lists, for each call in order, its
 * name, `status` and, for a failed call, the `code` its own result carried under
 * `_meta["tool-search/error"]` (when it had one): `[{ name, status, code? }]`.
 */
export const BATCH_META_KEY = 'tool-search/batch';

/** One call of a `tool_call` batch, as the gateway answers it. */
export interface BatchCallOutcome {
  /** The real tool's name, when the call named one. */
  name: string | undefined;
  /** The MCP result the call would have had on its own. */
  result: CallToolResult;
}

/** What `_meta["tool-search/batch"]` says about one call of a batch. */
export interface BatchCallStatus {
  name?: string;
  status: 'ok' | 'error';
  /** The error code the call's own result carried, when it failed with one. */
  code?: ToolSearchErrorCode;
}

function codeOf(result: CallToolResult): ToolSearchErrorCode | undefined {
  const code = result._meta?.[UPSTREAM_ERROR_META_KEY];
  return isToolSearchErrorCode(code) || isMcpErrorCode(code) ? code : undefined;
}

/**
 * The MCP result of a `tool_call` batch: for each call in order, a header line
 * (`Call 2 of 3 (get-sum): ok` or `: error`) followed by the content blocks its own
 * result had. `isError` only when every call failed, so that a model reads the
 * successes of a partly refused batch. `structuredContent` of the single results is not
 * merged: each call's text is in its blocks. Each call's error code is kept: in
 * `_meta["tool-search/batch"]` (see {@link BATCH_META_KEY}), and, when every call failed
 * with the same code, in `_meta["tool-search/error"]` as a single call's would be.
 *
 * @param outcomes - one per call of the batch, in order
 * @returns one `CallToolResult`
 * @throws nothing
 */
export function batchCallResult(outcomes: readonly BatchCallOutcome[]): CallToolResult {
  const content: CallToolResult['content'] = [];
  const statuses: BatchCallStatus[] = [];
  outcomes.forEach((outcome, index) => {
    const label = outcome.name === undefined ? '' : ` (${outcome.name})`;
    const status = outcome.result.isError === true ? 'error' : 'ok';
    content.push({
      type: 'text',
      text: `Call ${index + 1} of ${outcomes.length}${label}: ${status}`,
    });
    content.push(...outcome.result.content);
    const code = status === 'error' ? codeOf(outcome.result) : undefined;
    statuses.push({
      ...(outcome.name === undefined ? {} : { name: outcome.name }),
      status,
      ...(code === undefined ? {} : { code }),
    });
  });
  const failed = outcomes.every((outcome) => outcome.result.isError === true);
  const meta: Record<string, unknown> = { [BATCH_META_KEY]: statuses };
  const codes = new Set(statuses.map((entry) => entry.code));
  const [only] = codes;
  if (failed && codes.size === 1 && only !== undefined) meta[UPSTREAM_ERROR_META_KEY] = only;
  return failed ? { isError: true, content, _meta: meta } : { content, _meta: meta };
}
