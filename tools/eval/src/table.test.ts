import { describe, expect, it } from 'vitest';
import type { EvalSet } from './data.js';
import type { SetResult } from './evaluate.js';
import type { QueryScores } from './metrics.js';
import { formatTable } from './table.js';

const scores = (base: number): QueryScores => ({
  ndcg10: base,
  recall1: base - 0.1,
  recall5: base + 0.05,
  recall10: base + 0.1,
  mrr10: base - 0.05,
});

const set = (name: EvalSet['name'], tools: number, queries: number) =>
  ({
    name,
    tools: Array.from({ length: tools }),
    queries: Array.from({ length: queries }),
  }) as unknown as EvalSet;

const result = (ranker: string, name: EvalSet['name'], base: number): SetResult => ({
  ranker,
  set: name,
  queries: 2,
  scores: scores(base),
  perQuery: [],
  buildMs: base * 100,
  queryMs: base / 10,
  rankingHash: '',
});

describe('formatTable', () => {
  it('prints one aligned block per set and an average block, numbers right-aligned', () => {
    const sets = [set('metatool', 40, 12), set('bfcl', 7, 3)];
    const results = [
      result('spec', 'metatool', 0.5),
      result('bm25:default', 'metatool', 0.75),
      result('spec', 'bfcl', 0.4),
      result('bm25:default', 'bfcl', 0.6),
    ];
    expect(formatTable(results, sets, ['spec', 'bm25:default'])).toMatchInlineSnapshot(`
      "metatool: 40 tools, 12 dev queries
      ranker        NDCG@10   R@1   R@5  R@10  MRR@10  ×spec  build ms  query ms
      spec             50.0  40.0  55.0  60.0    45.0  1.00×      50.0     0.050
      bm25:default     75.0  65.0  80.0  85.0    70.0  1.50×      75.0     0.075

      bfcl: 7 tools, 3 dev queries
      ranker        NDCG@10   R@1   R@5  R@10  MRR@10  ×spec  build ms  query ms
      spec             40.0  30.0  45.0  50.0    35.0  1.00×      40.0     0.040
      bm25:default     60.0  50.0  65.0  70.0    55.0  1.50×      60.0     0.060

      average over metatool, bfcl (each set weighs the same)
      ranker        NDCG@10   R@1   R@5  R@10  MRR@10  ×spec  min ×spec
      spec             45.0  35.0  50.0  55.0    40.0  1.00×      1.00×
      bm25:default     67.5  57.5  72.5  77.5    62.5  1.50×      1.50×

      "
    `);
  });
});
