/** The scores of one query, each in [0, 1]. */
export interface QueryScores {
  ndcg10: number;
  recall1: number;
  recall5: number;
  recall10: number;
  mrr10: number;
}

/** The metric names, in the order the table prints them. */
export const METRICS = ['ndcg10', 'recall1', 'recall5', 'recall10', 'mrr10'] as const;

/** Printed column headers of {@link METRICS}. */
export const METRIC_LABELS: Record<keyof QueryScores, string> = {
  ndcg10: 'NDCG@10',
  recall1: 'R@1',
  recall5: 'R@5',
  recall10: 'R@10',
  mrr10: 'MRR@10',
};

/**
 * NDCG@k with binary relevance: DCG = Σ rel_i / log2(i + 1) over ranks i = 1..k, divided
 * by the DCG of an ideal ranking (min(k, |relevant|) relevant tools first). A ranked
 * name counts once, however often it repeats.
 */
export function ndcgAt(
  ranked: readonly string[],
  relevant: ReadonlySet<string>,
  k: number,
): number {
  if (relevant.size === 0) return 0;
  let dcg = 0;
  const seen = new Set<string>();
  const top = Math.min(k, ranked.length);
  for (let i = 0; i < top; i++) {
    const name = ranked[i]!;
    if (relevant.has(name) && !seen.has(name)) dcg += 1 / Math.log2(i + 2);
    seen.add(name);
  }
  let ideal = 0;
  for (let i = 0; i < Math.min(k, relevant.size); i++) ideal += 1 / Math.log2(i + 2);
  return dcg / ideal;
}

/** Recall@k: the share of the relevant tools found in the top k. */
export function recallAt(
  ranked: readonly string[],
  relevant: ReadonlySet<string>,
  k: number,
): number {
  if (relevant.size === 0) return 0;
  const found = new Set<string>();
  for (const name of ranked.slice(0, k)) if (relevant.has(name)) found.add(name);
  return found.size / relevant.size;
}

/** MRR@k: 1 / the rank of the first relevant tool in the top k, or 0. */
export function mrrAt(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
  const top = Math.min(k, ranked.length);
  for (let i = 0; i < top; i++) if (relevant.has(ranked[i]!)) return 1 / (i + 1);
  return 0;
}

/** Every metric of one query. */
export function scoreQuery(ranked: readonly string[], relevant: ReadonlySet<string>): QueryScores {
  return {
    ndcg10: ndcgAt(ranked, relevant, 10),
    recall1: recallAt(ranked, relevant, 1),
    recall5: recallAt(ranked, relevant, 5),
    recall10: recallAt(ranked, relevant, 10),
    mrr10: mrrAt(ranked, relevant, 10),
  };
}

/** The mean of each metric over queries (all zeros for none). */
export function meanScores(scores: readonly QueryScores[]): QueryScores {
  const total: QueryScores = { ndcg10: 0, recall1: 0, recall5: 0, recall10: 0, mrr10: 0 };
  for (const score of scores) for (const metric of METRICS) total[metric] += score[metric];
  if (scores.length > 0) for (const metric of METRICS) total[metric] /= scores.length;
  return total;
}
