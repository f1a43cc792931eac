export type { ActivationDecision, ActivationReason } from './activation.js';
export {
  activationThreshold,
  decideActivation,
  UNKNOWN_CONTEXT_THRESHOLD_TOKENS,
} from './activation.js';
export type { Analyzer, AnalyzerNormalization, AnalyzerOptions } from './analyzer.js';
export { createAnalyzer, DEFAULT_MAX_TEXT_LENGTH, DEFAULT_MAX_TOKEN_LENGTH } from './analyzer.js';
export type { ToolField } from './analyzer-fields.js';
export { TOOL_FIELDS, toolFieldTexts } from './analyzer-fields.js';
export type { CatalogOptions, CatalogSearchOptions, SearchHit, ToolCatalog } from './catalog.js';
export {
  createCatalog,
  MAX_QUERY_LENGTH,
  SEARCH_HIT_DESCRIPTION_LENGTH,
} from './catalog.js';
export type { ClassifyOptions } from './classify.js';
export {
  BRIDGE_TOOL_NAMES,
  classifyTools,
  isBridgeToolName,
  isDeferrable,
  TOOL_CALL,
  TOOL_DESCRIBE,
  TOOL_SEARCH,
} from './classify.js';
export type { ConfigWarning, ToolSearchConfig, ToolSearchMode } from './config.js';
export {
  DEFAULT_TOOL_SEARCH_CONFIG,
  MAX_SEARCH_LIMIT_CEILING,
  parseToolSearchConfig,
  parseToolSearchConfigWithWarnings,
} from './config.js';
export type { ToolSearchErrorCode, ToolSearchErrorData } from './errors.js';
export {
  describeError,
  isToolSearchErrorCode,
  TOOL_SEARCH_ERROR_CODES,
  ToolSearchError,
} from './errors.js';
export type {
  AnthropicTool,
  FromMcpToolOptions,
  McpTool,
  OpenAIChatTool,
  OpenAIResponsesTool,
} from './formats.js';
export {
  fromAnthropicTool,
  fromMcpTool,
  fromOpenAITool,
  MCP_ALWAYS_LOAD_META_KEY,
  toAnthropicTool,
  toMcpTool,
  toOpenAIResponsesTool,
  toOpenAITool,
} from './formats.js';
export type { Bm25Preset, Bm25RankerOptions } from './rankers/bm25/index.js';
export { createBm25Ranker } from './rankers/bm25/index.js';
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
export type { RankedTool, Ranker, RankerIndex } from './rankers/ranker.js';
export { defineRanker } from './rankers/ranker.js';
export type { WinkEmbeddingLoadStats, WinkEmbeddingOptions } from './rankers/wink-embeddings.js';
export { createWinkEmbedding } from './rankers/wink-embeddings.js';
export type { RelatedWords } from './related-words.js';
export { loadRelatedWords, RELATED_WORDS_FILE } from './related-words.js';
export type { TokenCounter } from './tokens.js';
export {
  charsPerTokenCounter,
  estimateToolTokens,
  estimateToolTokensOf,
  modelFacingJson,
} from './tokens.js';
export {
  MAX_TOOL_NAME_LENGTH,
  toolDefinitionSchema,
  validateToolDefinition,
  validateToolDefinitions,
} from './tool-definition.js';
export type {
  JsonSchemaObject,
  Promisable,
  ToolAnnotations,
  ToolCall,
  ToolDefinition,
  ToolOrigin,
  ToolSource,
} from './types.js';
