/**
 * What the sibling `@tool-search/*` packages share with core but users do not need.
 * Exactly these, each with the packages that import it:
 *
 * - `BRIDGE_TOOL_NAMES`, `isBridgeToolName`, `TOOL_SEARCH`, `TOOL_DESCRIBE`, `TOOL_CALL`:
 *   the bridge tool names (users import them from `@tool-search/bridge`); bridge,
 *   providers, code, mcp, ai-sdk.
 * - `SEARCH_HIT_DESCRIPTION_LENGTH`: the length a search hit's description is cut to; bridge.
 * - `registerToolList`: the registration of a list in the caller's catalog cache (its
 *   names checked and mapped); bridge.
 * - `differences`, `sameTools`, `PATCH_SHARE`: the list comparisons and the patch
 *   threshold; bridge, mcp.
 * - `VersionedMap`: the versioned map shared by every memo of tool lists; bridge.
 * - `applyToolLoading`: a server's `toolLoading` applied to its tools; bridge.
 * - `callSucceeded`: whether a dispatched call's outcome counts as a success; bridge,
 *   providers, mcp.
 * - `learningOf`: the learning state of an assembly, which the bridge and the providers'
 *   client mode note searches and calls into; `LearningSessionState`, its class, which the
 *   gateway's working-set handle extends (searches carried by the client, not the process); mcp.
 * - `describeError`: the one-line rendering of a thrown value; `isRecord` and `ownValue`:
 *   the plain-record checks; most packages.
 * - `modelFacingJson`: the model-facing JSON that token estimates count; tools/bench.
 * - `declaresReadOnly`: whether a tool's own annotations claim read-only (without
 *   `destructiveHint`), the default of the program policy and write budget; code, providers.
 * - `loadRelatedWords`: the loader of the shipped related-words table; the package check
 *   (tools/scripts) proves with it that the table is in the tarball.
 *
 * - `activeTracer`, `runInSpan`, `markSpanError`, `activeContext`, `withContext`,
 *   `activeInstruments`, `contextFromRequest`, `traceCarrier`, `OTEL_ATTRIBUTES`,
 *   `OTEL_SCOPE`, `EXECUTE_TOOL`, `TRACE_META_KEYS`, `withoutTelemetry`: OpenTelemetry spans, metrics and
 *   trace context over `@opentelemetry/api` (no-ops without an SDK); hooks, bridge, code, mcp.
 *
 * The rules of learning from use are public (`createLearningRules`), not here.
 *
 * Not a public API: any release may change or remove what is here, so import it only
 * from a `@tool-search/*` package of the same version.
 *
 * @packageDocumentation
 */

export { callSucceeded } from './call-outcome.js';
export { SEARCH_HIT_DESCRIPTION_LENGTH } from './catalog.js';
export { registerToolList } from './catalog-cache.js';
export {
  BRIDGE_TOOL_NAMES,
  isBridgeToolName,
  TOOL_CALL,
  TOOL_DESCRIBE,
  TOOL_SEARCH,
} from './classify.js';
export { describeError } from './errors.js';
export { isRecord, ownValue } from './is-record.js';
export { LearningSessionState, learningOf } from './learning/learning-session.js';
export {
  activeInstruments,
  type Meter,
  type ToolSearchInstruments,
} from './otel/otel-metrics.js';
export { EXECUTE_TOOL, OTEL_ATTRIBUTES, OTEL_SCOPE } from './otel/otel-names.js';
export { contextFromRequest, TRACE_META_KEYS, traceCarrier } from './otel/otel-propagation.js';
export {
  activeContext,
  activeTracer,
  type Context,
  markSpanError,
  runInSpan,
  type Span,
  type SpanStart,
  type Tracer,
  withContext,
  withoutTelemetry,
} from './otel/otel-trace.js';
export { declaresReadOnly } from './read-only.js';
export { loadRelatedWords } from './related-words.js';
export { modelFacingJson } from './tokens.js';
export { differences, PATCH_SHARE, sameTools } from './tool-list.js';
export { applyToolLoading } from './tool-loading.js';
export { VersionedMap } from './versioned-map.js';
