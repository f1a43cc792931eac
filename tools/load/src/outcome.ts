import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

/** The error code the gateway puts on its error results (`_meta["tool-search/error"]`). */
const ERROR_META_KEY = 'tool-search/error';

/**
 * What a client got for one request, as a short kind: `result`, `error result: <code>`,
 * `JSON-RPC error <code>`, `timed out`, `connection closed`, `HTTP <status>`, or
 * `failed: <message>`.
 */
export type OutcomeKind = string;

/**
 * The kind of a tool result.
 *
 * @param result - what `callTool` answered
 * @returns `result`, or `error result: <code>` (the gateway's code, else `tool error`)
 * @throws nothing
 */
export function resultKind(result: CallToolResult): OutcomeKind {
  if (result.isError !== true) return 'result';
  const code = result._meta?.[ERROR_META_KEY];
  return `error result: ${typeof code === 'string' ? code : 'tool error'}`;
}

function causeCode(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  return typeof cause?.code === 'string' ? cause.code : undefined;
}

/**
 * The kind of a request that threw.
 *
 * @param error - what `callTool` (or `connect`) threw
 * @returns `timed out` (the client's own timeout), `connection closed` (the socket or
 * stream went away, or nothing listens), `JSON-RPC error <code>` (the server answered
 * an error), `HTTP <status>` (the endpoint refused the request), or `failed: <message>`
 * @throws nothing
 */
export function errorKind(error: unknown): OutcomeKind {
  if (error instanceof McpError) {
    if (error.code === ErrorCode.RequestTimeout) return 'timed out';
    if (error.code === ErrorCode.ConnectionClosed && /connection closed/i.test(error.message)) {
      return 'connection closed';
    }
    return `JSON-RPC error ${error.code}`;
  }
  if (error instanceof StreamableHTTPError) {
    return typeof error.code === 'number' && error.code >= 100
      ? `HTTP ${error.code}`
      : 'connection closed';
  }
  const message = error instanceof Error ? error.message : String(error);
  const code = causeCode(error) ?? (error as { code?: unknown } | undefined)?.code;
  if (
    /fetch failed|socket|other side closed|terminated|ECONNRESET|ECONNREFUSED|EPIPE/i.test(
      message,
    ) ||
    (typeof code === 'string' && /^(ECONN|EPIPE|UND_ERR)/.test(code))
  ) {
    return 'connection closed';
  }
  return `failed: ${message.slice(0, 80)}`;
}

/** Counts of outcome kinds. */
export type OutcomeCounts = Record<OutcomeKind, number>;

/**
 * Adds one to a count.
 *
 * @param counts - the counts, changed in place
 * @param kind - the kind to count
 * @returns nothing
 * @throws nothing
 */
export function count(counts: OutcomeCounts, kind: OutcomeKind): void {
  counts[kind] = (counts[kind] ?? 0) + 1;
}

/**
 * The text of a tool result.
 *
 * @param result - a tool result
 * @returns its text parts joined
 * @throws nothing
 */
export function textOf(result: CallToolResult): string {
  return (result.content ?? []).map((part) => (part.type === 'text' ? part.text : '')).join('');
}
