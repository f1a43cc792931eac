import { describe, expect, it } from 'vitest';
import { createAnalyzer } from '../../analyzer.js';
import { quotedIdentifiers } from './exact-names.js';
import { expansionsFor, mentionedKinds } from './query/query-expansion.js';
import { resolveBm25Tuning } from './tuning.js';

// Both read a query with patterns behind a quick check of its characters: every shape
// the patterns know must still get through the check.

describe('identifier-shaped words of a query', () => {
  it('finds each shape: separators and a lowercase letter before a capital', () => {
    for (const word of [
      'sort_list',
      'github.create',
      'ns:tool',
      'a/b',
      'kebab-case',
      'getWeather',
    ]) {
      // One shape a query, so that no other character lets the query through.
      expect(quotedIdentifiers(`please use ${word} now`), word).toEqual([word]);
    }
  });

  it('finds none in plain words, capitalised or not', () => {
    expect(quotedIdentifiers('Create a Github issue for The Team')).toEqual([]);
  });
});

describe('files and URLs a query mentions', () => {
  const tuning = resolveBm25Tuning({});
  const expansions = expansionsFor(createAnalyzer(tuning.analyzer), tuning)!;

  it('sees URLs, Unix and Windows paths, and file names', () => {
    expect(mentionedKinds('open https://example.com now', expansions)).toEqual(expansions.url);
    expect(mentionedKinds('open www.example.com', expansions)).toEqual(expansions.url);
    expect(mentionedKinds('read ~/notes/today please', expansions)).toEqual(expansions.file);
    expect(mentionedKinds('read C:\\Users\\me', expansions)).toEqual(expansions.file);
    expect(mentionedKinds('summarise report.pdf', expansions)).toEqual(expansions.file);
  });

  it('sees neither in plain words', () => {
    expect(mentionedKinds('search the web for a file', expansions)).toEqual([]);
  });
});
