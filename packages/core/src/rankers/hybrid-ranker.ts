// The hybrid ranker: fuses the hits of several rankers, by normalised weighted scores
// or by reciprocal rank, so that a lexical and a semantic ranker can work together.

import { ToolSearchError } from '../errors.js';
import type { ToolDefinition } from '../types.js';
import type { RankedTool, Ranker, RankerIndex } from './ranker.js';

/**
 * How a {@link createHybridRanker} merges its rankers' lists:
 * - `'rrf'`: reciprocal-rank fusion, Σ 1 / (60 + rank) over the lists a tool appears in;
 * - `{ weights }`: each list's scores divided by its best score, times the ranker's
 *   weight, summed.
 */
export type HybridFusion = 'rrf' | { weights: readonly number[] };

/** Options of {@link createHybridRanker}. */
export interface HybridRankerOptions {
  /** The rankers to fuse, two or more. */
  rankers: readonly Ranker[];
  /** The fusion. @defaultValue 'rrf' */
  fusion?: HybridFusion;
  /** How many results each ranker contributes before fusion. @defaultValue 50 */
  depth?: number;
  /** The rank constant of reciprocal-rank fusion. @defaultValue 60 */
  rrfK?: number;
  /** The ranker's id. @defaultValue `hybrid(<ids>)` */
  id?: string;
}

/**
 * Creates a ranker that fuses the result lists of several rankers, e.g. the default
 * BM25 and an embedding ranker: reciprocal-rank fusion (`'rrf'`) or a weighted sum of
 * scores normalised per list (`{ weights }`). Every ranker indexes the same tools; each
 * contributes its top `depth`. Equal fused scores keep catalog order.
 *
 * @example
 * ```ts
 * const ranker = createHybridRanker({
 *   rankers: [createBm25Ranker(), createEmbeddingRanker({ embed: createWinkEmbedding() })],
 *   fusion: { weights: [1, 0.5] },
 * });
 * ```
 *
 * @param options.rankers - the rankers, two or more
 * @param options.fusion - `'rrf'` or `{ weights }`, one weight per ranker @defaultValue 'rrf'
 * @param options.depth - results taken from each ranker @defaultValue 50
 * @param options.rrfK - the RRF rank constant @defaultValue 60
 * @param options.id - the ranker's id @defaultValue `hybrid(<ids>)`
 * @returns a {@link Ranker}
 * @throws {@link ToolSearchError} `invalid_argument` for fewer than two rankers, weights
 *   that do not match the rankers or are not finite and non-negative, or a bad depth
 */
export function createHybridRanker(options: HybridRankerOptions): Ranker {
  const rankers = [...(options.rankers ?? [])];
  const fusion = options.fusion ?? 'rrf';
  const depth = options.depth ?? 50;
  const rrfK = options.rrfK ?? 60;
  if (rankers.length < 2) {
    throw new ToolSearchError('invalid_argument', 'createHybridRanker needs two or more rankers.');
  }
  if (!(Number.isInteger(depth) && depth >= 1) || !(rrfK >= 0)) {
    throw new ToolSearchError(
      'invalid_argument',
      `createHybridRanker needs a positive integer depth and a non-negative rrfK, got ${depth} and ${rrfK}.`,
    );
  }
  let weights: number[];
  if (fusion === 'rrf') weights = rankers.map(() => 1);
  else if (
    typeof fusion === 'object' &&
    Array.isArray(fusion.weights) &&
    fusion.weights.length === rankers.length &&
    fusion.weights.every((weight) => Number.isFinite(weight) && weight >= 0)
  ) {
    weights = [...fusion.weights];
  } else {
    throw new ToolSearchError(
      'invalid_argument',
      `createHybridRanker fusion must be 'rrf' or { weights } with ${rankers.length} finite, non-negative weights.`,
    );
  }
  const useRanks = fusion === 'rrf';

  return {
    specificationVersion: 'v1',
    id: options.id ?? `hybrid(${rankers.map((ranker) => ranker.id).join(',')})`,
    async index(tools: readonly ToolDefinition[]): Promise<RankerIndex> {
      const indexes = await Promise.all(rankers.map(async (ranker) => ranker.index(tools)));
      const order = new Map(tools.map((tool, i) => [tool.name, i]));
      return {
        async search(query: string, limit: number): Promise<RankedTool[]> {
          const k = Math.floor(limit);
          if (!(k >= 1)) return [];
          const lists = await Promise.all(
            indexes.map(async (index) => index.search(query, Math.max(depth, k))),
          );
          const fused = new Map<string, number>();
          lists.forEach((list, r) => {
            const best = list[0]?.score ?? 0;
            list.forEach((hit, rank) => {
              if (!order.has(hit.name)) return;
              const part = useRanks
                ? weights[r]! / (rrfK + rank + 1)
                : best > 0
                  ? (weights[r]! * hit.score) / best
                  : 0;
              fused.set(hit.name, (fused.get(hit.name) ?? 0) + part);
            });
          });
          return [...fused]
            .filter(([, score]) => score > 0 && Number.isFinite(score))
            .sort((a, b) => b[1] - a[1] || order.get(a[0])! - order.get(b[0])!)
            .slice(0, k)
            .map(([name, score]) => ({ name, score }));
        },
      };
    },
  };
}
