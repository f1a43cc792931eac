import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRelatedWords, RELATED_WORDS_FILE } from './related-words.js';

describe('loadRelatedWords', () => {
  it('reads the shipped WordNet table, keyed and valued by Porter2 stems', () => {
    const table = loadRelatedWords(RELATED_WORDS_FILE)!;
    expect(table.size).toBeGreaterThan(40_000);
    expect(table.get('apart')).toContain('hous');
    expect(table.get('rental')).toEqual(expect.arrayContaining(['leas', 'let']));
    expect(table.get('zzzz')).toBeUndefined();
    expect(table.get('')).toBeUndefined();
  });

  it('finds every line of a sorted file by binary search, and skips comments and bad lines', () => {
    const dir = mkdtempSync(join(tmpdir(), 'related-'));
    const file = join(dir, 'table.txt');
    const keys = Array.from({ length: 200 }, (_, i) => `k${String(i).padStart(3, '0')}`);
    const lines = [
      '# a comment\twith a tab',
      'no tab here',
      ...keys.map((k) => `${k}\t${k}x ${k}y`),
    ];
    writeFileSync(file, `${lines.join('\n')}\n`);
    const table = loadRelatedWords(file)!;
    expect(table.size).toBe(200);
    for (const key of keys) expect(table.get(key)).toEqual([`${key}x`, `${key}y`]);
    expect(table.get('no tab here')).toBeUndefined();
    expect(table.get('# a comment')).toBeUndefined();
    expect(table.get('k2000')).toBeUndefined();
  });

  it('returns undefined, without throwing, when the file cannot be read', () => {
    expect(loadRelatedWords(join(tmpdir(), 'no-such-dir', 'related.txt'))).toBeUndefined();
  });
});
