import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolSearchErrorCode } from '@tool-search/core';

/**
 * The `_meta` key of an error result that carries its code, one of
 * `TOOL_SEARCH_ERROR_CODES` (`@tool-search/core`) or `MCP_ERROR_CODES` (`./errors.ts`): the pool's (`unknown_tool`,
 * `upstream_unavailable`, `upstream_timeout`, `upstream_failed`, `aborted`) and the
 * gateway's (`denied`, `cancelled`, `not_in_session`, `tool_changed`, and the dispatcher's
 * error codes).
 */
export const UPSTREAM_ERROR_META_KEY = 'tool-search/error';

/**
 * An `isError` tool result with a text for the model and the error code under
 * `_meta["tool-search/error"]`.
 *
 * @internal
 */
export function errorResult(code: ToolSearchErrorCode, text: string): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text }],
    _meta: { [UPSTREAM_ERROR_META_KEY]: code },
  };
}
