import { describe, expect, it } from 'vitest';
import { formatMb, formatMs, formatTable } from './table.js';

describe('formatTable', () => {
  it('prints a title, a header, a rule and the rows, numeric columns right-aligned', () => {
    const text = formatTable(
      'sessions',
      ['server', 'p50', 'rss'],
      [
        ['memory', formatMs(3.456), formatMb(88_080_384)],
        ['filesystem', formatMs(123.4), formatMb(undefined)],
      ],
    );
    expect(text.split('\n')).toEqual([
      'sessions',
      'server          p50      rss',
      '──────────  ───────  ───────',
      'memory      3.46 ms  84.0 MB',
      'filesystem   123 ms        -',
    ]);
  });

  it('leaves a text column left-aligned without trailing spaces', () => {
    const text = formatTable(
      't',
      ['a', 'note'],
      [
        ['1', 'x'],
        ['22', 'longer'],
      ],
    );
    expect(text.split('\n')).toEqual(['t', ' a  note', '──  ──────', ' 1  x', '22  longer']);
  });
});
