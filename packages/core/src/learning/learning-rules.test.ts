import { describe, expect, it } from 'vitest';
import { createLearningRules } from './learning-rules.js';
import { DEFAULT_LEARNING_LIMITS } from './learning-types.js';

const DAY = 24 * 60 * 60 * 1000;

describe('createLearningRules', () => {
  it('fills in the default limits and refuses a limit that is unknown or not positive', () => {
    expect(createLearningRules().limits).toEqual(DEFAULT_LEARNING_LIMITS);
    expect(createLearningRules({ tokenCap: 2 }).limits.tokenCap).toBe(2);
    expect(() => createLearningRules({ tokenCap: 0 })).toThrow(/positive finite/);
    expect(() => createLearningRules({ nope: 1 } as never)).toThrow(
      /Unknown learning limit 'nope'/,
    );
  });

  it('counts the distinct terms of 1 to 64 characters of a pair, its first maxTermsPerQuery', () => {
    const rules = createLearningRules({ maxTermsPerQuery: 3 });
    expect(rules.termsOf(['a', '', 'a', 'x'.repeat(65), 'b', 7 as never, 'c', 'd'])).toEqual([
      'a',
      'b',
      'c',
    ]);
    expect(rules.termsOf('post' as never)).toEqual([]);
  });

  it('keeps 16 characters of a hash of a token, never the token', () => {
    const key = createLearningRules().tokenKey('secret-token-value');
    expect(key).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(key).toBe(createLearningRules().tokenKey('secret-token-value'));
    expect(key).not.toBe(createLearningRules().tokenKey('another-token'));
  });

  it('gives a token at most its cap per term and per tool, net of what it gave', () => {
    const rules = createLearningRules({ tokenCap: 1, tokenToolCap: 3 });
    expect(rules.tokenShare(1, { term: 0, tool: 0 })).toBe(1);
    expect(rules.tokenShare(1, { term: 0.75, tool: 0 })).toBe(0.25);
    expect(rules.tokenShare(1, { term: 0, tool: 3 })).toBe(0);
    expect(rules.tokenShare(5, { term: 0, tool: 0 })).toBe(1);
  });

  it('decays in steps: halves a count every half-life', () => {
    const rules = createLearningRules({ halfLifeMs: 2 * DAY, decayStepMs: DAY });
    expect(rules.stepOf(3 * DAY - 1)).toBe(2);
    expect(rules.stepOf(3 * DAY)).toBe(3);
    expect(rules.decayFactor(0)).toBe(1);
    expect(rules.decayFactor(2)).toBe(0.5);
    expect(rules.decayFactor(1)).toBeCloseTo(Math.SQRT1_2, 15);
    expect(rules.minCount).toBeGreaterThan(0);
  });

  it('forgets the lightest tenth of the terms past the bound in all', () => {
    const rules = createLearningRules();
    expect(rules.pruneThreshold([5, 1, 4, 2, 3, 9, 8, 7, 6, 10, 11])).toBe(2);
    expect(rules.pruneThreshold([3])).toBe(3);
    expect(rules.pruneThreshold([])).toBe(Number.NEGATIVE_INFINITY);
  });

  it('hands out frozen views, heaviest first, then by term', () => {
    const view = createLearningRules().view([
      ['b', 1],
      ['c', 2],
      ['a', 1],
    ]);
    expect(Object.keys(view)).toEqual(['c', 'a', 'b']);
    expect(Object.isFrozen(view)).toBe(true);
  });

  it('checks an import as an export, with invalid_argument', () => {
    const rules = createLearningRules();
    const data = { format: 'tool-search-learning', version: 1, profiles: { a: { t: { x: 1 } } } };
    expect(rules.parseExport(data)).toEqual(data);
    expect(() => rules.parseExport({ format: 'x' })).toThrow(
      expect.objectContaining({ code: 'invalid_argument' }),
    );
  });
});
