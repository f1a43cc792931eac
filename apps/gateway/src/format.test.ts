import { describe, expect, it } from 'vitest';
import {
  createStyle,
  formatPct,
  formatWindow,
  renderTable,
  truncate,
  visibleLength,
  wrapText,
} from './format.js';

describe('renderTable', () => {
  it('aligns columns by their printed width, escape codes excluded', () => {
    const style = createStyle(true);
    const lines = renderTable(
      [{ header: 'name' }, { header: 'tokens', align: 'right' }],
      [
        [style.green('tool_search'), '160'],
        ['read_text_file', '1,234'],
      ],
    );
    expect(lines.map(visibleLength)).toEqual([24, 24, 24, 24]);
    expect(lines[3]).toBe('  read_text_file   1,234');
  });

  it('aligns CJK and emoji cells by their terminal width', () => {
    const lines = renderTable(
      [{ header: 'server' }, { header: 'tools', align: 'right' }],
      [
        ['検索サーバー', '3'],
        ['🔍 search', '12'],
        ['memory', '9'],
      ],
    );
    expect(lines.map(visibleLength)).toEqual([21, 21, 21, 21, 21]);
    expect(lines[2]).toBe('  検索サーバー      3');
  });

  it('cuts plain cells to maxWidth', () => {
    const lines = renderTable([{ header: 'd', maxWidth: 5 }], [['abcdefgh']]);
    expect(lines[2]).toBe('  abcd…');
  });
});

describe('text helpers', () => {
  it('truncates, wraps and formats', () => {
    expect(truncate('a  b\nc', 10)).toBe('a b c');
    expect(wrapText('one two three four', 9)).toEqual(['one two', 'three', 'four']);
    expect(wrapText('one two three four', 9, 2)).toEqual(['one two', 'three …']);
    expect(formatPct(20_000, 200_000)).toBe('10.0%');
    expect(formatWindow(128_000)).toBe('128k');
    expect(formatWindow(1_000_000)).toBe('1M');
  });
});
