import { describe, expect, it } from 'vitest';
import { ToolSearchError } from '../../../errors.js';
import { conformanceTools } from '../../../testing/fixtures.js';
import type { ToolDefinition } from '../../../types.js';
import type { Ranker } from '../../ranker.js';
import { createFieldBm25Ranker } from '../field-ranker.js';
import { createTermDictionary } from './term-dictionary.js';

const queries = ['read a file', 'send an email message', 'weather forecast', 'create issue'];

async function search(ranker: Ranker, tools: readonly ToolDefinition[]) {
  const index = await ranker.index(tools);
  return Promise.all(queries.map((query) => index.search(query, 10)));
}

describe('createTermDictionary', () => {
  it('gives a term the same id every time, in order of first sight', () => {
    const dictionary = createTermDictionary();
    expect([
      dictionary.intern('read'),
      dictionary.intern('file'),
      dictionary.intern('read'),
    ]).toEqual([0, 1, 0]);
    expect(dictionary.terms.get('file')).toBe(1);
  });

  it('is full at its cap, and still interns (a build is never cut short)', () => {
    const dictionary = createTermDictionary({ maxTerms: 2 });
    dictionary.intern('a');
    expect(dictionary.full).toBe(false);
    dictionary.intern('b');
    expect(dictionary.full).toBe(true);
    expect(dictionary.intern('c')).toBe(2);
  });

  it('refuses a cap that is not a positive integer', () => {
    for (const maxTerms of [0, -1, 1.5, Number.NaN]) {
      expect(() => createTermDictionary({ maxTerms })).toThrow(ToolSearchError);
    }
  });
});

describe('a ranker whose dictionary passes its cap', () => {
  it('starts a new dictionary and ranks exactly as a ranker that never filled one', async () => {
    const tools = structuredClone(conformanceTools as ToolDefinition[]);
    const reversed = [...tools].reverse();
    const fresh = createFieldBm25Ranker();
    const expected = [await search(fresh, tools), await search(fresh, reversed)];
    // A cap far below the catalog's vocabulary: every build starts a new dictionary.
    const small = createFieldBm25Ranker({}, 'bm25:default', { maxTerms: 8 });
    expect(await search(small, tools)).toEqual(expected[0]);
    expect(await search(small, reversed)).toEqual(expected[1]);
    expect(await search(small, tools.slice(1))).toEqual(await search(fresh, tools.slice(1)));
  });
});
