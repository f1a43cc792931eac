import { describe, expect, it } from 'vitest';
import {
  createStyle,
  formatPct,
  formatWindow,
  renderTable,
  shouldColor,
  truncate,
  visibleLength,
  wrapText,
} from './format.js';

describe('shouldColor', () => {
  it('colours a TTY only, never with NO_COLOR or FORCE_COLOR=0, always with FORCE_COLOR=1', () => {
    expect(shouldColor({ isTTY: true }, {})).toBe(true);
    expect(shouldColor({ isTTY: false }, {})).toBe(false);
    expect(shouldColor({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(shouldColor({ isTTY: true }, { FORCE_COLOR: '0' })).toBe(false);
    expect(shouldColor({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
  });
});

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
