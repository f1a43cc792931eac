import { ownValue } from './resolve.js';

/**
 * Whether a result looks like a success: not an MCP error result, not a refused dispatch.
 *
 * @throws nothing
 * @internal
 */
export function looksSuccessful(result: unknown): boolean {
  if (typeof result !== 'object' || result === null) return true;
  if (ownValue(result, 'isError') === true) return false;
  const status = ownValue(result, 'status');
  return typeof status !== 'string' || status === 'ok';
}
