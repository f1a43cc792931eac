import { describe, expect, it } from 'vitest';
import { meanScores, mrrAt, ndcgAt, recallAt, scoreQuery } from './metrics.js';

const relevant = new Set(['a', 'b']);

describe('ndcgAt', () => {
  it('is 1 for an ideal ranking', () => {
    expect(ndcgAt(['a', 'b', 'c'], relevant, 10)).toBeCloseTo(1, 12);
    expect(ndcgAt(['b', 'a'], relevant, 10)).toBeCloseTo(1, 12);
  });

  it('discounts by log2 of the rank + 1 and normalises by the ideal DCG', () => {
    // DCG = 1/log2(3) + 1/log2(5); ideal = 1 + 1/log2(3)
    const expected = (1 / Math.log2(3) + 1 / Math.log2(5)) / (1 + 1 / Math.log2(3));
    expect(ndcgAt(['x', 'a', 'y', 'b'], relevant, 10)).toBeCloseTo(expected, 12);
    expect(expected).toBeCloseTo(0.6509, 4);
  });

  it('ignores ranks past k and repeated names', () => {
    expect(ndcgAt(['x', 'y', 'a'], relevant, 2)).toBe(0);
    expect(ndcgAt(['a', 'a', 'x'], relevant, 10)).toBeCloseTo(1 / (1 + 1 / Math.log2(3)), 12);
  });

  it('caps the ideal at k relevant tools', () => {
    const many = new Set(['a', 'b', 'c']);
    expect(ndcgAt(['a'], many, 1)).toBe(1);
  });

  it('is 0 with nothing relevant', () => {
    expect(ndcgAt(['a'], new Set(), 10)).toBe(0);
    expect(ndcgAt([], relevant, 10)).toBe(0);
  });
});

describe('recallAt', () => {
  it('is the share of relevant tools in the top k', () => {
    expect(recallAt(['a', 'x', 'b'], relevant, 1)).toBe(0.5);
    expect(recallAt(['x', 'a', 'b'], relevant, 1)).toBe(0);
    expect(recallAt(['x', 'a', 'b'], relevant, 5)).toBe(1);
    expect(recallAt(['a', 'a'], relevant, 5)).toBe(0.5);
  });
});

describe('mrrAt', () => {
  it('is 1 / the rank of the first relevant tool within k', () => {
    expect(mrrAt(['a'], relevant, 10)).toBe(1);
    expect(mrrAt(['x', 'y', 'b'], relevant, 10)).toBeCloseTo(1 / 3, 12);
    expect(mrrAt(['x', 'y', 'b'], relevant, 2)).toBe(0);
  });
});

describe('scoreQuery and meanScores', () => {
  it('average each metric over queries', () => {
    const mean = meanScores([scoreQuery(['a', 'b'], relevant), scoreQuery(['x'], relevant)]);
    expect(mean).toEqual({ ndcg10: 0.5, recall1: 0.25, recall5: 0.5, recall10: 0.5, mrr10: 0.5 });
    expect(meanScores([]).ndcg10).toBe(0);
  });
});
