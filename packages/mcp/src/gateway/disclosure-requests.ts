// The requests of the draft MCP progressive-disclosure methods, as the gateway serves
// them under `capabilities.experimental`: `tools/catalog` (short entries), `tools/describe`
// (full definitions of named tools) and a `query` on `tools/list` (SEP-1821's filtering).
// Every malformed request is refused here with JSON-RPC -32602 (Invalid params), a message
// that says what was wrong and `data.reason` a client can branch on.

import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { echoName } from '@tool-search/bridge';
import { isRecord } from '@tool-search/core/internal';
import { z } from 'zod/v4';

/** The experimental capability of `tools/catalog` and `tools/describe`. */
export const PROGRESSIVE_DISCLOSURE_CAPABILITY = 'tools.progressiveDisclosure';
/** The experimental capability of a `query` on `tools/list`. */
export const FILTERING_CAPABILITY = 'tools.filtering';
/** The method of the catalog's short entries. */
export const CATALOG_METHOD = 'tools/catalog';
/** The method of named tools' full definitions. */
export const DESCRIBE_METHOD = 'tools/describe';
/** The most names one `tools/describe` takes. */
export const MAX_DESCRIBE_NAMES = 50;
/** Catalog entries per page. */
export const CATALOG_PAGE_SIZE = 100;
/** The longest `query` of a `tools/list`, in characters. */
export const MAX_QUERY_CHARS = 500;

/** Why a request was refused, in `error.data.reason`. */
export type DisclosureRefusal = 'invalid_params' | 'too_many_names' | 'unknown_names';

/** Only the method is checked by the SDK: the params are read below, with clear errors. */
const lenient = <M extends string>(method: M) =>
  z.object({ method: z.literal(method), params: z.unknown().optional() }).passthrough();

export const CATALOG_REQUEST_SCHEMA = lenient(CATALOG_METHOD);
export const DESCRIBE_REQUEST_SCHEMA = lenient(DESCRIBE_METHOD);
export const LIST_REQUEST_SCHEMA = lenient('tools/list');

/**
 * The -32602 error of a refused request.
 *
 * @param reason - `data.reason`
 * @param message - what was wrong and what to send instead
 * @param data - more fields of `data`
 * @returns the error to throw from a handler
 * @throws nothing
 */
export function invalidParams(
  reason: DisclosureRefusal,
  message: string,
  data: Record<string, unknown> = {},
): McpError {
  return new McpError(ErrorCode.InvalidParams, message, { reason, ...data });
}

function paramsOf(method: string, raw: unknown): Record<string, unknown> {
  if (raw === undefined) return {};
  if (!isRecord(raw) || Array.isArray(raw)) {
    throw invalidParams('invalid_params', `${method}: params must be an object.`);
  }
  return raw;
}

function cursorOf(method: string, params: Record<string, unknown>): number {
  const cursor = params['cursor'];
  if (cursor === undefined) return 0;
  if (typeof cursor !== 'string' || !/^\d{1,9}$/.test(cursor)) {
    throw invalidParams(
      'invalid_params',
      `${method}: cursor must be a nextCursor this server returned.`,
    );
  }
  return Number(cursor);
}

/**
 * Reads the params of `tools/catalog`: an optional `cursor`.
 *
 * @returns the offset of the page
 * @throws {@link McpError} -32602 for params that are not an object or a cursor this
 * server did not give
 */
export function readCatalogParams(raw: unknown): { offset: number } {
  return { offset: cursorOf(CATALOG_METHOD, paramsOf(CATALOG_METHOD, raw)) };
}

/**
 * Reads the params of `tools/describe`: `names`, 1 to {@link MAX_DESCRIBE_NAMES} strings.
 *
 * @returns the names, repeats dropped, in order
 * @throws {@link McpError} -32602 (`invalid_params`, or `too_many_names` with `maxNames`)
 */
export function readDescribeParams(raw: unknown): { names: string[] } {
  const params = paramsOf(DESCRIBE_METHOD, raw);
  const names = params['names'];
  if (!Array.isArray(names) || names.length === 0) {
    throw invalidParams(
      'invalid_params',
      `${DESCRIBE_METHOD}: params.names must be an array of 1 to ${MAX_DESCRIBE_NAMES} tool names.`,
    );
  }
  if (names.length > MAX_DESCRIBE_NAMES) {
    throw invalidParams(
      'too_many_names',
      `${DESCRIBE_METHOD}: at most ${MAX_DESCRIBE_NAMES} names a request, got ${names.length}. Ask in several requests.`,
      { maxNames: MAX_DESCRIBE_NAMES },
    );
  }
  const bad = names.findIndex((name) => typeof name !== 'string' || name.length === 0);
  if (bad >= 0) {
    throw invalidParams(
      'invalid_params',
      `${DESCRIBE_METHOD}: params.names[${bad}] must be a non-empty string.`,
    );
  }
  return { names: [...new Set(names as string[])] };
}

/**
 * The -32602 error of names this session does not hold (unknown, or out of its scope:
 * the two are not told apart, so that no other profile's tool names leak).
 *
 * @param names - the names, echoed cut to a readable length
 * @throws nothing
 */
export function unknownNamesError(names: readonly string[]): McpError {
  const echoed = names.map(echoName);
  return invalidParams(
    'unknown_names',
    `${DESCRIBE_METHOD}: no tool of ${echoed.length === 1 ? 'this name' : 'these names'} in this session: ${echoed.join(', ')}. Read tools/catalog for the names.`,
    { unknownNames: echoed },
  );
}

/**
 * Reads the params of `tools/list`: `cursor` as before, and `query` when the client
 * filters.
 *
 * @returns the query (trimmed), when one was sent
 * @throws {@link McpError} -32602 for a query that is not a non-empty string of at most
 * {@link MAX_QUERY_CHARS} characters
 */
export function readListParams(raw: unknown): { query?: string } {
  const params = paramsOf('tools/list', raw);
  const query = params['query'];
  if (query === undefined) return {};
  if (typeof query !== 'string' || query.trim() === '' || query.length > MAX_QUERY_CHARS) {
    throw invalidParams(
      'invalid_params',
      `tools/list: query must be a non-empty string of at most ${MAX_QUERY_CHARS} characters.`,
    );
  }
  return { query: query.trim() };
}
