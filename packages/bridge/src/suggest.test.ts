import { createCatalog } from '@tool-search/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mcpTools } from './__fixtures__/tools.js';
import { boundedDistance, suggestNames } from './suggest.js';

function levenshtein(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i]![j] = Math.min(
        rows[i - 1]![j]! + 1,
        rows[i]![j - 1]! + 1,
        rows[i - 1]![j - 1]! + cost,
      );
    }
  }
  return rows[a.length]![b.length]!;
}

describe('boundedDistance', () => {
  it('equals the Levenshtein distance when within the bound, else Infinity', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '_'), maxLength: 12 });
    fc.assert(
      fc.property(text, text, fc.integer({ min: 0, max: 6 }), (a, b, bound) => {
        const exact = levenshtein(a, b);
        expect(boundedDistance(a, b, bound)).toBe(
          exact <= bound ? exact : Number.POSITIVE_INFINITY,
        );
      }),
      { numRuns: 500 },
    );
  });
});

describe('suggestNames', () => {
  const catalog = createCatalog(mcpTools);

  it('puts the nearest spelling first, ignoring case', async () => {
    expect((await suggestNames(catalog, 'slack_post_mesage'))[0]).toBe('slack_post_message');
    expect((await suggestNames(catalog, 'GITHUB_CREATE_ISSUE'))[0]).toBe('github_create_issue');
  });

  it('gives at most three names, all from the catalog', async () => {
    const names = new Set(catalog.names());
    for (const query of ['github', 'post', 'x', 'create_issue_github', '⚙️']) {
      const suggestions = await suggestNames(catalog, query);
      expect(suggestions.length).toBeLessThanOrEqual(3);
      for (const name of suggestions) expect(names.has(name)).toBe(true);
    }
  });

  it('falls back to the catalog search for a name with no near spelling', async () => {
    expect(await suggestNames(catalog, 'issue_comment_add_to_github')).toContain(
      'github_add_issue_comment',
    );
  });

  it('gives nothing from an empty catalog', async () => {
    expect(await suggestNames(createCatalog([]), 'anything')).toEqual([]);
  });
});
