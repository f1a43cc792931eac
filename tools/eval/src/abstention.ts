import type { Ranker } from '@tool-search/core';
import { renderTable } from '@tool-search/terminal';
import type { DataSetName, EvalSet } from './data.js';
import { EVAL_DEPTH } from './evaluate.js';
import { ndcgAt } from './metrics.js';

/**
 * The half of a catalog a tool falls in: bit 0 of the 32-bit FNV-1a hash of its name's
 * UTF-16 code units. Stable across runs and machines, blind to catalog order.
 */
export function catalogHalf(name: string): 0 | 1 {
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    hash ^= name.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return (hash & 1) as 0 | 1;
}

/** One ranker's abstention scores on one set, both halves pooled. */
export interface AbstentionResult {
  ranker: string;
  set: DataSetName;
  /** Queries whose relevant tools are all in the half left out. */
  unanswerable: number;
  /** The share of those answered with nothing: the higher the better. */
  abstained: number;
  /**
   * The share of those whose top hit in the indexed half scores at least as high as their
   * best labelled tool scores over the whole catalog: the score holds no more evidence
   * for the labelled tool than for the near-duplicate that stands in for it, so no floor
   * on it can answer these with nothing without also emptying the whole catalog's answer.
   */
  shadowed: number;
  /** Queries with at least one relevant tool in the indexed half. */
  answerable: number;
  /** NDCG@10 of the answerable ones, against their relevant tools in the indexed half. */
  ndcg10: number;
  /** The share of answerable queries answered with nothing: the lower the better. */
  empty: number;
}

/**
 * The abstention test: each half of the catalog (split by {@link catalogHalf}) is
 * indexed on its own; a query whose relevant tools are all in the other half should get
 * nothing, one with a relevant tool in the indexed half should find it. Both halves are
 * run and pooled, so every query counts once per half.
 */
export async function evaluateAbstention(
  ranker: Ranker,
  label: string,
  set: EvalSet,
): Promise<AbstentionResult> {
  let unanswerable = 0;
  let abstained = 0;
  let answerable = 0;
  let ndcg = 0;
  let empty = 0;
  let shadowed = 0;
  // The labelled tools' scores over the whole catalog, for the shadowed share.
  const whole = await ranker.index(set.tools);
  const labelledScore = async (query: EvalSet['queries'][number]): Promise<number> => {
    const ranked = await whole.search(query.query, set.tools.length);
    let best = 0;
    for (const hit of ranked) if (query.relevant.has(hit.name)) best = Math.max(best, hit.score);
    return best;
  };
  for (const half of [0, 1] as const) {
    const kept = set.tools.filter((tool) => catalogHalf(tool.name) === half);
    const names = new Set(kept.map((tool) => tool.name));
    const index = await ranker.index(kept);
    for (const query of set.queries) {
      const relevant = new Set([...query.relevant].filter((name) => names.has(name)));
      const ranked = await index.search(query.query, EVAL_DEPTH);
      if (relevant.size === 0) {
        unanswerable++;
        if (ranked.length === 0) abstained++;
        else if (ranked[0]!.score >= (await labelledScore(query))) shadowed++;
        continue;
      }
      answerable++;
      if (ranked.length === 0) empty++;
      ndcg += ndcgAt(
        ranked.map((hit) => hit.name),
        relevant,
        EVAL_DEPTH,
      );
    }
  }
  return {
    ranker: label,
    set: set.name,
    unanswerable,
    abstained: unanswerable === 0 ? 0 : abstained / unanswerable,
    shadowed: unanswerable === 0 ? 0 : shadowed / unanswerable,
    answerable,
    ndcg10: answerable === 0 ? 0 : ndcg / answerable,
    empty: answerable === 0 ? 0 : empty / answerable,
  };
}

function percent(value: number): string {
  return (value * 100).toFixed(1);
}

/**
 * The abstention table: per set and averaged over sets (each set weighs the same), the
 * share of unanswerable queries answered with nothing, and the answerable queries'
 * NDCG@10 and share answered with nothing (percentages).
 */
export function formatAbstentionTable(
  results: readonly AbstentionResult[],
  rankers: readonly string[],
): string {
  const sets = [...new Set(results.map((result) => result.set))];
  const rows: string[][] = [];
  for (const ranker of rankers) {
    const mine = results.filter((result) => result.ranker === ranker);
    for (const result of mine) {
      rows.push([
        ranker,
        result.set,
        `${percent(result.abstained)} of ${result.unanswerable}`,
        percent(result.shadowed),
        percent(result.ndcg10),
        `${percent(result.empty)} of ${result.answerable}`,
      ]);
    }
    if (sets.length > 1 && mine.length === sets.length) {
      const mean = (pick: (result: AbstentionResult) => number): number =>
        mine.reduce((sum, result) => sum + pick(result), 0) / mine.length;
      rows.push([
        ranker,
        'average',
        percent(mean((result) => result.abstained)),
        percent(mean((result) => result.shadowed)),
        percent(mean((result) => result.ndcg10)),
        percent(mean((result) => result.empty)),
      ]);
    }
  }
  const columns = [
    { header: 'ranker', align: 'left' as const },
    { header: 'set', align: 'left' as const },
    { header: 'unanswerable: nothing %', align: 'right' as const },
    { header: 'unanswerable: shadowed %', align: 'right' as const },
    { header: 'answerable: NDCG@10', align: 'right' as const },
    { header: 'answerable: nothing %', align: 'right' as const },
  ];
  return `half of each catalog indexed (split by a hash of the tool name), both halves pooled; shadowed: the top hit scores at least what the labelled tool scores in the whole catalog\n${renderTable(columns, rows, { rule: false }).join('\n')}\n`;
}
