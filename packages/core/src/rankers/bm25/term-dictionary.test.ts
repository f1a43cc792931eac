import { describe, expect, it } from 'vitest';
import { conformanceTools } from '../../testing/fixtures.js';
import type { ToolDefinition } from '../../types.js';
import { createFieldBm25Ranker } from './field-ranker.js';
import {
  currentGeneration,
  currentTerms,
  internTerm,
  renewTermsIfFull,
} from './term-dictionary.js';

const queries = ['read a file', 'send an email message', 'weather forecast', 'create issue'];

describe('the term dictionary', () => {
  it('gives a term the same id until it is full, then starts over in a new generation', async () => {
    const ranker = createFieldBm25Ranker();
    const tools = structuredClone(conformanceTools as ToolDefinition[]);
    const search = async (list: readonly ToolDefinition[], by = ranker) => {
      const index = await by.index(list);
      return Promise.all(queries.map((query) => index.search(query, 10)));
    };
    const before = await search(tools);
    const reversed = await search([...tools].reverse());

    const first = internTerm('zz-first');
    expect(internTerm('zz-first')).toBe(first);
    const generation = currentGeneration();
    renewTermsIfFull();
    expect(currentGeneration()).toBe(generation);

    for (let i = currentTerms().size; i < 2 ** 20; i++) internTerm(`zz-${i}`);
    const full = currentTerms();
    renewTermsIfFull();
    expect(currentGeneration()).toBe(generation + 1);
    expect(currentTerms().size).toBe(0);
    // The old dictionary is replaced, not cleared: a searcher built on it still reads it.
    expect(full.get('zz-first')).toBe(first);

    // The same tool objects, analysed again in the new generation, rank the same: in a
    // new ranker (the shared memo holds vectors of the old generation) and in a new
    // list of the ranker that indexed them (its last index is of the old generation).
    expect(await search(tools, createFieldBm25Ranker())).toEqual(before);
    expect(currentTerms().size).toBeGreaterThan(0);
    expect(await search([...tools].reverse())).toEqual(reversed);
    expect(await search([...tools])).toEqual(before);
  });
});
