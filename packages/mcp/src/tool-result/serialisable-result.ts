import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { echoName } from '@tool-search/bridge';
import { describeError } from '@tool-search/core/internal';
import { errorResult } from './error-result.js';

/**
 * The error result of a tool result the gateway could not serialise: it says the
 * gateway (or one of its hooks) failed, not the upstream server.
 *
 * @param name - the called tool
 * @param error - what `JSON.stringify` threw (a `BigInt`, a cycle)
 * @returns an error result with code `gateway_failed`
 * @throws nothing
 */
export function serialisationFailure(name: string, error: unknown): CallToolResult {
  return errorResult(
    'gateway_failed',
    `The gateway could not serialise the result of '${echoName(name)}' (${describeError(error)}). This is a fault in the gateway or one of its hooks, not in the upstream server; the tool may have run.`,
  );
}

/**
 * `JSON.stringify` that says whether it worked instead of throwing.
 *
 * @param value - any value
 * @returns the JSON text (`''` for `undefined`), or the error
 * @throws nothing
 */
export function tryStringify(
  value: unknown,
): { ok: true; text: string } | { ok: false; error: unknown } {
  try {
    return { ok: true, text: JSON.stringify(value) ?? '' };
  } catch (error) {
    return { ok: false, error };
  }
}

/**
 * A tool result the gateway can send: `result` itself when it serialises to JSON,
 * else {@link serialisationFailure}. Without this the transport fails to send (a
 * `BigInt` or a cycle put there by a hook, say) and the client waits for an answer
 * that never comes.
 *
 * @param name - the called tool, for the message
 * @param result - what the gateway is about to answer
 * @returns `result`, or an error result with code `gateway_failed`
 * @throws nothing
 */
export function serialisableResult(name: string, result: CallToolResult): CallToolResult {
  const json = tryStringify(result);
  return json.ok ? result : serialisationFailure(name, json.error);
}
