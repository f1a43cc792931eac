import { isRecord, ownValue } from './is-record.js';

/**
 * Whether what a call came to counts as a success, the one rule of every surface (the
 * bridge's search guard and learning, the providers' `dispatch*` helpers, the gateway):
 * a dispatcher's `ok` outcome whose tool did not answer an MCP error result (`isError`),
 * or any other value that is neither an error result nor a refusal (`status` other than
 * `'ok'`: denied, error, cancelled).
 *
 * @param outcome - a `DispatchResult`, a bridge answer, or a tool's own result
 * @returns false for a denied, failed, cancelled or refused call and an MCP error result
 * @throws nothing
 */
export function callSucceeded(outcome: unknown): boolean {
  if (typeof outcome !== 'object' || outcome === null) return true;
  if (ownValue(outcome, 'isError') === true) return false;
  const status = ownValue(outcome, 'status');
  if (typeof status === 'string' && status !== 'ok') return false;
  // A dispatcher's `ok` whose tool answered an MCP error result.
  const result = status === 'ok' ? ownValue(outcome, 'result') : undefined;
  return !(isRecord(result) && ownValue(result, 'isError') === true);
}
