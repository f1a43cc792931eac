// The embedding ranker: cosine similarity between the query's vector and each tool's,
// over any embedding function the caller gives it (vectors cached per tool text).

import { toolFieldTexts } from '../analyzer-fields.js';
import { ToolSearchError } from '../errors.js';
import type { Promisable, ToolDefinition } from '../types.js';
import type { RankedTool, Ranker, RankerIndex } from './ranker.js';

/**
 * Turns texts into vectors, one per text, all of one dimension. Any model fits: a
 * hosted embeddings API, a local model, or {@link createWinkEmbedding}.
 */
export type EmbedFunction = (texts: string[]) => Promisable<ArrayLike<number>[]>;

/** Options of {@link createEmbeddingRanker}. */
export interface EmbeddingRankerOptions {
  /** The embedding function, called with batches of texts. */
  embed: EmbedFunction;
  /** The ranker's id. @defaultValue 'embedding' */
  id?: string;
  /**
   * The text embedded for a tool.
   * @defaultValue the name with separators as spaces, the description and the parameter names
   */
  toolText?: (tool: ToolDefinition) => string;
  /** Tools whose cosine similarity is at most this are not returned. @defaultValue 0 */
  minScore?: number;
  /** The most texts per call of `embed`. @defaultValue 256 */
  batchSize?: number;
  /** The most tool texts whose vectors are remembered. @defaultValue 50000 */
  cacheSize?: number;
}

/** The default text embedded for a tool: name (separators as spaces), description, parameter names. */
export function defaultEmbeddingText(tool: ToolDefinition): string {
  const fields = toolFieldTexts(tool);
  return [
    fields.name.replace(/[_.\-:/]+/g, ' '),
    fields.description.slice(0, 2_000),
    fields.parameterNames,
  ]
    .filter((part) => part !== '')
    .join('\n');
}

function toUnitVector(
  raw: ArrayLike<number> | undefined,
  dimension: number | undefined,
): Float32Array {
  if (raw === undefined || typeof raw.length !== 'number' || raw.length === 0) {
    throw new ToolSearchError(
      'ranker_failed',
      'The embedding function returned a missing or empty vector. Return one vector per text.',
    );
  }
  if (dimension !== undefined && raw.length !== dimension) {
    throw new ToolSearchError(
      'ranker_failed',
      `The embedding function returned vectors of ${dimension} and ${raw.length} dimensions. Return vectors of one dimension.`,
    );
  }
  const vector = Float32Array.from(raw);
  let norm = 0;
  for (let i = 0; i < vector.length; i++) {
    const value = vector[i]!;
    if (!Number.isFinite(value)) {
      throw new ToolSearchError(
        'ranker_failed',
        'The embedding function returned a vector with a value that is not a finite number.',
      );
    }
    norm += value * value;
  }
  norm = Math.sqrt(norm);
  // A zero vector (no known word) stays zero: it matches nothing.
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i]! /= norm;
  return vector;
}

/**
 * Creates a ranker that ranks tools by the cosine similarity of their embedding to the
 * query's, over any embedding function.
 *
 * Tool vectors are cached per tool text (bounded), so indexing a new list embeds only
 * tools whose text has not been seen; a query's vector is cached too. Scores are
 * cosine similarities; only tools above `minScore` (and above 0) are returned.
 *
 * @example
 * ```ts
 * const ranker = createEmbeddingRanker({
 *   embed: async (texts) => (await openai.embeddings.create({ model, input: texts })).data.map((d) => d.embedding),
 * });
 * const catalog = createCatalog(tools, { ranker });
 * ```
 *
 * @param options.embed - the embedding function
 * @param options.id - the ranker's id @defaultValue 'embedding'
 * @param options.toolText - the text embedded for a tool @defaultValue {@link defaultEmbeddingText}
 * @param options.minScore - the lowest cosine similarity returned (exclusive) @defaultValue 0
 * @param options.batchSize - the most texts per `embed` call @defaultValue 256
 * @param options.cacheSize - the most tool texts remembered @defaultValue 50000
 * @returns a {@link Ranker}
 * @throws {@link ToolSearchError} `invalid_argument` when `embed` is not a function; its
 *   index and search reject with `ranker_failed` when `embed` returns the wrong number of
 *   vectors, vectors of mixed dimensions or non-finite values, and with whatever `embed` throws
 */
export function createEmbeddingRanker(options: EmbeddingRankerOptions): Ranker {
  const { embed, id = 'embedding', toolText = defaultEmbeddingText, minScore = 0 } = options;
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? 256));
  const cacheSize = Math.max(1, Math.floor(options.cacheSize ?? 50_000));
  if (typeof embed !== 'function') {
    throw new ToolSearchError(
      'invalid_argument',
      'createEmbeddingRanker needs an embed function: (texts: string[]) => vectors.',
    );
  }
  const vectors = new Map<string, Float32Array>();
  const queryVectors = new Map<string, Float32Array>();
  let dimension: number | undefined;

  const embedAll = async (texts: string[]): Promise<Float32Array[]> => {
    const out: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += batchSize) {
      const batch = texts.slice(start, start + batchSize);
      const raw = await embed(batch);
      if (!Array.isArray(raw) || raw.length !== batch.length) {
        throw new ToolSearchError(
          'ranker_failed',
          `The embedding function returned ${Array.isArray(raw) ? raw.length : typeof raw} vectors for ${batch.length} texts. Return one vector per text.`,
        );
      }
      for (const vector of raw) {
        const unit = toUnitVector(vector, dimension);
        dimension ??= unit.length;
        out.push(unit);
      }
    }
    return out;
  };

  const remember = (cache: Map<string, Float32Array>, key: string, vector: Float32Array): void => {
    if (cache.size >= cacheSize) {
      const oldest = cache.keys().next();
      if (!oldest.done) cache.delete(oldest.value);
    }
    cache.set(key, vector);
  };

  return {
    specificationVersion: 'v1',
    id,
    async index(tools: readonly ToolDefinition[]): Promise<RankerIndex> {
      const texts = tools.map((tool) => toolText(tool));
      const missing = [...new Set(texts.filter((text) => !vectors.has(text)))];
      if (missing.length > 0) {
        const embedded = await embedAll(missing);
        for (let i = 0; i < missing.length; i++) remember(vectors, missing[i]!, embedded[i]!);
      }
      const rows = texts.map((text) => vectors.get(text));
      // A cache smaller than the list may have dropped early rows: embed those again.
      const dropped = texts.filter((_, i) => rows[i] === undefined);
      if (dropped.length > 0) {
        const again = await embedAll(dropped);
        let next = 0;
        for (let i = 0; i < rows.length; i++) if (rows[i] === undefined) rows[i] = again[next++];
      }
      const width = rows[0]?.length ?? 0;
      const matrix = new Float32Array(rows.length * width);
      for (let i = 0; i < rows.length; i++) matrix.set(rows[i]!, i * width);
      const names = tools.map((tool) => tool.name);

      return {
        async search(query: string, limit: number): Promise<RankedTool[]> {
          const k = Math.min(Math.floor(limit), names.length);
          if (!(k >= 1) || typeof query !== 'string' || query.trim() === '') return [];
          let vector = queryVectors.get(query);
          if (vector === undefined) {
            [vector] = await embedAll([query]);
            remember(queryVectors, query, vector!);
          }
          if (vector!.length !== width) return [];
          const scored: { doc: number; score: number }[] = [];
          for (let doc = 0; doc < names.length; doc++) {
            let dot = 0;
            const offset = doc * width;
            for (let d = 0; d < width; d++) dot += matrix[offset + d]! * vector![d]!;
            if (dot > minScore && dot > 0) scored.push({ doc, score: dot });
          }
          scored.sort((a, b) => b.score - a.score || a.doc - b.doc);
          return scored.slice(0, k).map(({ doc, score }) => ({ name: names[doc]!, score }));
        },
      };
    },
  };
}
