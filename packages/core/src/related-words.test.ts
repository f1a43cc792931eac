import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { loadRelatedWords } from './related-words.js';

describe('loadRelatedWords', () => {
  it('reads the shipped WordNet table, keyed and valued by Porter2 stems', () => {
    const table = loadRelatedWords();
    expect(table.size).toBeGreaterThan(40_000);
    expect(table.get('apart')).toContain('hous');
    expect(table.get('rental')).toEqual(expect.arrayContaining(['leas', 'let']));
    expect(table.get('zzzz')).toBeUndefined();
    expect(table.get('')).toBeUndefined();
  });

  it('finds every line of a sorted table by binary search, and skips comments and bad lines', () => {
    const keys = Array.from({ length: 200 }, (_, i) => `k${String(i).padStart(3, '0')}`);
    const lines = [
      '# a comment\twith a tab',
      'no tab here',
      ...keys.map((k) => `${k}\t${k}x ${k}y`),
    ];
    const table = loadRelatedWords(`${lines.join('\n')}\n`);
    expect(table.size).toBe(200);
    for (const key of keys) expect(table.get(key)).toEqual([`${key}x`, `${key}y`]);
    expect(table.get('no tab here')).toBeUndefined();
    expect(table.get('# a comment')).toBeUndefined();
    expect(table.get('k2000')).toBeUndefined();
  });

  it('finds every term of the shipped table, and no word that is not one', () => {
    const text = (createRequire(import.meta.url)('../data/related-words.cjs') as string).trimEnd();
    const reference = new Map<string, string[]>();
    for (const line of text.split('\n')) {
      const tab = line.indexOf('\t');
      if (line.startsWith('#') || tab <= 0) continue;
      reference.set(line.slice(0, tab), line.slice(tab + 1).split(' '));
    }
    const table = loadRelatedWords();
    expect(table.size).toBe(reference.size);
    for (const [key, related] of reference) {
      expect(table.get(key)).toEqual(related);
      if (!reference.has(`${key}q`)) expect(table.get(`${key}q`)).toBeUndefined();
      const prefix = key.slice(0, -1);
      if (!reference.has(prefix)) expect(table.get(prefix)).toBeUndefined();
    }
  });

  it('reads an empty table as one without terms', () => {
    expect(loadRelatedWords('').size).toBe(0);
  });
});
