import { describe, expect, it } from 'vitest';
import { type FirstSearchRun, formatFirstSearch, medianRatio } from './first-search.js';

const run = (ratio: number, warmUp = true): FirstSearchRun => ({
  warmUp,
  firstMs: ratio * 10,
  medianMs: 10,
  ratio,
});

describe('medianRatio', () => {
  it('takes the median over the runs with the warm-up, leaving the run without it out', () => {
    expect(medianRatio([run(5), run(1.5), run(1.8), run(60, false)])).toBe(1.8);
    expect(medianRatio([run(60, false)])).toBeNaN();
  });
});

describe('formatFirstSearch', () => {
  it('says whether the target is met', () => {
    expect(formatFirstSearch([run(1.5), run(1.9), run(3)])).toContain('1.90x, met');
    expect(formatFirstSearch([run(2.5), run(3)])).toContain('NOT met');
  });
});
