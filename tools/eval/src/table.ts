import { renderTable } from '@tool-search/terminal';
import type { EvalSet } from './data.js';
import type { SetResult } from './evaluate.js';
import { METRIC_LABELS, METRICS, meanScores } from './metrics.js';

const BASELINE = 'spec';

function percent(value: number): string {
  return (value * 100).toFixed(1);
}

function ratio(value: number, baseline: number | undefined): string {
  if (baseline === undefined || baseline === 0) return '–';
  return `${(value / baseline).toFixed(2)}×`;
}

// The first row is the header; no rule under it, the first column left, numbers right.
function render(rows: string[][]): string {
  const [header = [], ...body] = rows;
  const columns = header.map((title, index) => ({
    header: title,
    align: index === 0 ? ('left' as const) : ('right' as const),
  }));
  return renderTable(columns, body, { rule: false }).join('\n');
}

/**
 * The side-by-side table: one block per set and one for the average over sets. Metrics
 * are percentages; `×spec` is NDCG@10 divided by the baseline's on the same set (in the
 * average block: the mean of the per-set ratios).
 */
export function formatTable(
  results: readonly SetResult[],
  sets: readonly EvalSet[],
  rankers: readonly string[],
): string {
  const header = ['ranker', ...METRICS.map((metric) => METRIC_LABELS[metric]), '×spec'];
  const out: string[] = [];
  for (const set of sets) {
    const baseline = results.find((r) => r.set === set.name && r.ranker === BASELINE);
    const rows = [[...header, 'build ms', 'query ms']];
    for (const ranker of rankers) {
      const result = results.find((r) => r.set === set.name && r.ranker === ranker);
      if (!result) continue;
      rows.push([
        ranker,
        ...METRICS.map((metric) => percent(result.scores[metric])),
        ratio(result.scores.ndcg10, baseline?.scores.ndcg10),
        result.buildMs.toFixed(1),
        result.queryMs.toFixed(3),
      ]);
    }
    out.push(`${set.name}: ${set.tools.length} tools, ${set.queries.length} dev queries`);
    out.push(render(rows), '');
  }
  if (sets.length > 1) {
    const rows = [[...header, 'min ×spec']];
    for (const ranker of rankers) {
      const mine = results.filter((r) => r.ranker === ranker);
      if (mine.length !== sets.length) continue;
      const mean = meanScores(mine.map((r) => r.scores));
      const ratios = mine.flatMap((r) => {
        const base = results.find((b) => b.set === r.set && b.ranker === BASELINE);
        return base && base.scores.ndcg10 > 0 ? [r.scores.ndcg10 / base.scores.ndcg10] : [];
      });
      const meanRatio = ratios.length
        ? ratios.reduce((sum, value) => sum + value, 0) / ratios.length
        : 0;
      rows.push([
        ranker,
        ...METRICS.map((metric) => percent(mean[metric])),
        ratios.length === sets.length ? `${meanRatio.toFixed(2)}×` : '–',
        ratios.length === sets.length ? `${Math.min(...ratios).toFixed(2)}×` : '–',
      ]);
    }
    out.push(`average over ${sets.map((set) => set.name).join(', ')} (each set weighs the same)`);
    out.push(render(rows), '');
  }
  return `${out.join('\n')}\n`;
}
