/**
 * The codes of the bridge's model-facing refusals: every `BridgeErrorResult` (and every
 * refused `resolveUnderlyingCall`, every `not_found` entry of a `select:` query) carries
 * one in `code` beside its `error` text. The list is closed: a test walks every refusal
 * the bridge answers and checks its code is listed. The texts are byte for byte those of
 * `bridgeErrors` and `batchErrors`; each code, its text and what the model should do is
 * listed in `docs/guides/errors.md`. Details (the name, the missing keys, the
 * violations) ride in the result's other fields, never in the code.
 *
 * These are data the model reads, not `ToolSearchError` codes: the bridge never throws
 * them.
 *
 * - `query_required`: `tool_search` without a `query` (or `queries`).
 * - `name_required`: `tool_describe` without a `name`, or `tool_call` without a `name`.
 * - `not_deferrable`: the name is a visible tool (or a bridge tool for `tool_describe`):
 *   call it directly.
 * - `not_currently_available`: the session held the tool earlier but not now.
 * - `not_in_session`: the name is no tool of this session.
 * - `bridge_tool`: `tool_call` was asked to call a bridge tool.
 * - `invalid_json`: `arguments` was a string that is not JSON.
 * - `arguments_not_object`: `arguments` was JSON but not an object.
 * - `missing_arguments`: the call was not invoked: required arguments are missing.
 * - `invalid_arguments`: the call was not invoked: its arguments break the tool's schema.
 * - `search_failed`: the catalog's search threw (a broken ranker).
 * - `too_many_queries`, `too_many_names`, `too_many_selected`, `too_many_calls`: a batch
 *   (`queries`, `names`, `select:`, `calls`) over its bound; nothing was answered or run.
 * - `queries_not_list`, `names_not_list`, `calls_not_list`: a batch field that is not a list.
 * - `calls_empty`: `tool_call` with an empty `calls`.
 * - `select_empty`: `select:` with no name after it.
 * - `calls_and_name`: `tool_call` with both `calls` and `name`; nothing was run.
 * - `search_limit`: the session made its most searches (`runaway.maxSearches`) within the
 *   window (`runaway.windowMs`): call a tool found, or load tools with `select:`.
 * - `call_failed`: one call of a `tool_call` batch failed in `dispatch` (it threw); the
 *   other calls were answered on their own.
 */
export const BRIDGE_ERROR_CODES = [
  'query_required',
  'name_required',
  'not_deferrable',
  'not_currently_available',
  'not_in_session',
  'bridge_tool',
  'invalid_json',
  'arguments_not_object',
  'missing_arguments',
  'invalid_arguments',
  'search_failed',
  'too_many_queries',
  'queries_not_list',
  'too_many_names',
  'names_not_list',
  'too_many_selected',
  'select_empty',
  'too_many_calls',
  'calls_not_list',
  'calls_empty',
  'calls_and_name',
  'call_failed',
  'search_limit',
] as const;

/** One of {@link BRIDGE_ERROR_CODES}. */
export type BridgeErrorCode = (typeof BRIDGE_ERROR_CODES)[number];

const CODES: ReadonlySet<string> = new Set(BRIDGE_ERROR_CODES);

/**
 * Whether a value is one of {@link BRIDGE_ERROR_CODES}, e.g. the `code` of a bridge
 * answer read back from a transcript.
 *
 * @param value - any value
 * @returns true when `value` is a bridge code
 * @throws nothing
 */
export function isBridgeErrorCode(value: unknown): value is BridgeErrorCode {
  return typeof value === 'string' && CODES.has(value);
}
