import type { ServerResponse } from 'node:http';
import { ToolSearchError } from '@tool-search/core';
import { describeError } from '@tool-search/core/internal';

/**
 * Answers a request with a JSON-RPC error (code -32000) and an HTTP status.
 *
 * @param res - the response
 * @param status - the HTTP status
 * @param message - the error's message
 * @param headers - more headers
 * @returns nothing
 * @throws nothing
 */
export function reply(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  // A refusal before the body was read: the client may still be sending it, so the
  // socket cannot carry another request; say so, or its next request meets a reset.
  const unread = res.req.complete ? {} : { connection: 'close' };
  res.writeHead(status, { 'content-type': 'application/json', ...unread, ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/** The message of a store failure, for a 503. */
export function storeFailure(error: unknown): string {
  return ToolSearchError.isInstance(error)
    ? error.message
    : `The gateway's store is unavailable: ${describeError(error)}. Try again in a few seconds.`;
}
