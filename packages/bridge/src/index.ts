/**
 * The three bridge tools of tool search (`tool_search`, `tool_describe`, `tool_call`):
 * when the deferrable tools' schemas are big enough to matter, they leave the
 * model-visible tool list and the model loads what it needs through the bridge.
 *
 * The entry points:
 * - {@link assembleTools}: the model-visible tools of one turn, with the activation
 *   decision and the catalog of the deferred tools.
 * - {@link handleBridgeCall}: answer a bridge call, dispatching `tool_call` to the real
 *   tool.
 * - {@link resolveUnderlyingCall}: the real call behind a `tool_call`, for a runtime that
 *   dispatches itself.
 * - {@link unwrapToolCall}: the real name and arguments of any call, for display.
 * - {@link TOOL_SEARCH}, {@link TOOL_DESCRIBE}, {@link TOOL_CALL} and
 *   {@link BRIDGE_TOOL_NAMES}: the reserved names.
 *
 * @example
 * ```ts
 * import { assembleTools, handleBridgeCall } from '@tool-search/bridge';
 *
 * const assembly = assembleTools({ tools, contextWindow: 200_000 });
 * // send assembly.tools to the model; for each call it makes:
 * const result = (await handleBridgeCall(assembly, call, dispatch)) ?? (await dispatch(call));
 * ```
 *
 * @packageDocumentation
 */
export type { ToolCall } from '@tool-search/core';
export {
  BRIDGE_TOOL_NAMES,
  isBridgeToolName,
  TOOL_CALL,
  TOOL_DESCRIBE,
  TOOL_SEARCH,
} from '@tool-search/core/internal';
export type { ArgumentRepair, ArgumentViolation } from '@tool-search/core/validate';
export type { AssembleOptions, Assembly, AssemblyStats } from './assemble.js';
export { assembleTools } from './assemble.js';
export type { AssemblyCache } from './assembly-memo.js';
export { createAssemblyCache } from './assembly-memo.js';
export type { BridgeBatchResult } from './batch.js';
export {
  batchErrors,
  MAX_BATCH_CALLS,
  MAX_DESCRIBE_NAMES,
  MAX_SEARCH_QUERIES,
} from './batch-limits.js';
export type {
  BridgeDispatch,
  BridgeDispatchContext,
  BridgeErrorResult,
  BridgeRefusal,
  BridgeResult,
  HandleBridgeCallOptions,
  ToolDescribeResult,
  ToolSearchResult,
} from './bridge-results.js';
export type { BridgeToolsOptions } from './definitions.js';
export { createBridgeTools } from './definitions.js';
export type { BridgeErrorCode } from './errors.js';
export { BRIDGE_ERROR_CODES, isBridgeErrorCode } from './errors.js';
export { admitSearch, runawayTexts } from './guarded-search.js';
export { handleBridgeCall } from './handle.js';
export type {
  IncomingToolCall,
  ResolveFailure,
  ResolveResult,
  ResolveSuccess,
} from './resolve.js';
export { bridgeErrors, echoName, resolveUnderlyingCall } from './resolve.js';
export type { SearchGuard, SearchGuardOptions } from './search-guard.js';
export { createSearchGuard } from './search-guard.js';
export type { ToolSearchMatch } from './search-match.js';
export type { SelectMiss } from './select.js';
export type { BridgeTelemetry } from './telemetry.js';
export { createBridgeTelemetry, searchesPerSuccessfulCall } from './telemetry.js';
export type { SearchableToolset } from './toolset-listing.js';
export type { UnwrappedToolCall } from './unwrap.js';
export { unwrapToolCall } from './unwrap.js';
