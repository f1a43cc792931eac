import { defineErrorCodes } from '@tool-search/core';

/**
 * The error codes `@tool-search/mcp` adds to core's (`TOOL_SEARCH_ERROR_CODES`): the
 * `code` of a `ToolSearchError` the pool or gateway raises, and of an MCP error result
 * (`_meta["tool-search/error"]`). The list is closed and registered with core's
 * `ToolSearchErrorCodeRegistry`, so `new ToolSearchError('upstream_timeout', ...)`
 * type-checks wherever this package is imported. Details ride in `data`. Every code, with
 * its text and what to do, is listed in `docs/guides/errors.md`.
 *
 * - `denied`: a guardrail, a `beforeCall` hook or the approval refused the call (gateway;
 *   a guardrail or approval that throws or times out denies: they fail closed).
 * - `cancelled`: the caller cancelled the call while the dispatcher ran it (gateway).
 * - `aborted`: the call was cancelled by its `AbortSignal` on the way to, or while
 *   waiting for, an upstream (pool).
 * - `not_in_session`: the tool is not visible in this session (gateway). Search for it or
 *   list the tools again.
 * - `tool_changed`: the tool's definition changed hands while the call waited (gateway).
 *   List the tools again, then call.
 * - `upstream_unavailable`: the upstream server is down or reconnecting; the tool was not
 *   called (pool). Try again in a few seconds.
 * - `upstream_timeout`: the upstream did not answer in time, or the call waited too long
 *   in its queue (pool), or a `tool_call` batch passed its overall deadline before the
 *   call finished or started (gateway, `batchDeadlineMs`). Try again, or with less work.
 * - `upstream_failed`: the upstream closed the connection, answered a malformed result or
 *   failed the call, or asked for input (`input_required`) that nobody answered (pool).
 * - `gateway_failed`: the gateway itself could not serialise a result (a hook put a
 *   `BigInt` or a cycle in it); the tool may have run. A fault of the gateway or its
 *   hooks, never of the upstream server.
 * - `store_unavailable`: the gateway's shared store (Redis) did not answer; what needs it
 *   (a session on another replica, an approval, the audit trail) failed closed. The
 *   gateway reconnects on its own: try again in a few seconds.
 * - `upstream_sign_in_required`: an upstream that needs OAuth has no usable sign-in (none
 *   stored for the gateway or the profile, or the server and its refresh refused it); the
 *   tool was not called. Run `tool-search-gateway login <server>` (with `--profile`).
 * - `upstream_sign_in_failed`: a sign-in did not complete: the authorization server refused
 *   or answered what does not check out (another issuer, another resource, a wrong `state`
 *   or `iss`, garbage, too slow), or the server still refused the new token.
 */
export const MCP_ERROR_CODES = [
  'denied',
  'cancelled',
  'aborted',
  'not_in_session',
  'tool_changed',
  'upstream_unavailable',
  'upstream_timeout',
  'upstream_failed',
  'gateway_failed',
  'store_unavailable',
  'upstream_sign_in_required',
  'upstream_sign_in_failed',
] as const;

/** One of {@link MCP_ERROR_CODES}. */
export type McpErrorCode = (typeof MCP_ERROR_CODES)[number];

declare module '@tool-search/core' {
  /** `@tool-search/mcp` registers {@link MCP_ERROR_CODES}. */
  interface ToolSearchErrorCodeRegistry extends Record<McpErrorCode, true> {}
}

const mcpErrorCodes = defineErrorCodes(MCP_ERROR_CODES);

/**
 * Whether a value is one of {@link MCP_ERROR_CODES}, e.g. the
 * `_meta["tool-search/error"]` of a result read off the wire.
 *
 * @param value - any value
 * @returns true when `value` is an mcp code
 * @throws nothing
 */
export const isMcpErrorCode: (value: unknown) => value is McpErrorCode = mcpErrorCodes.is;
