import { describe, expect, it } from 'vitest';
import { renderTable } from './table.js';
import { textWidth } from './text-width.js';

const bold = (text: string) => `\u001b[1m${text}\u001b[22m`;

describe('renderTable', () => {
  it('aligns columns by their printed width, escape codes excluded', () => {
    const lines = renderTable(
      [{ header: 'name' }, { header: 'tokens', align: 'right' }],
      [
        ['\u001b[32mtool_search\u001b[39m', '160'],
        ['read_text_file', '1,234'],
      ],
      { indent: 2 },
    );
    expect(lines.map(textWidth)).toEqual([24, 24, 24, 24]);
    expect(lines[3]).toBe('  read_text_file   1,234');
  });

  it('aligns rows of CJK and emoji text with rows of ASCII text', () => {
    const lines = renderTable(
      [{ header: 'tool' }, { header: 'note' }, { header: 'n', align: 'right' }],
      [
        ['検索', '🔍 find', '1'],
        ['search', 'e\u0301te\u0301', '22'],
      ],
    );
    expect(lines).toEqual([
      'tool    note      n',
      '──────  ───────  ──',
      '検索    🔍 find   1',
      'search  e\u0301te\u0301      22',
    ]);
    const ends = lines.map((line) => textWidth(line));
    expect(new Set(ends.slice(2)).size).toBe(1);
  });

  it('cuts plain cells to maxWidth in columns and leaves styled cells whole', () => {
    const lines = renderTable(
      [{ header: 'd', maxWidth: 5 }],
      [['abcdefgh'], ['日本語テキスト'], ['\u001b[31mabcdefgh\u001b[39m']],
    );
    expect(lines.slice(2)).toEqual(['abcd…', '日本…', '\u001b[31mabcdefgh\u001b[39m']);
  });

  it('styles the header line and can leave the rule out', () => {
    const lines = renderTable([{ header: 'a' }, { header: 'b', align: 'right' }], [['x', 'y']], {
      rule: false,
      style: { bold },
    });
    expect(lines).toEqual([bold('a  b'), 'x  y']);
  });

  it('writes no trailing spaces in plain lines', () => {
    const lines = renderTable(
      [{ header: 'name' }, { header: 'x' }],
      [
        ['a', ''],
        ['longer', 'b'],
      ],
    );
    expect(lines.every((line) => line === line.trimEnd())).toBe(true);
  });

  it('renders a padded markdown table with alignment markers', () => {
    const lines = renderTable(
      [{ header: 'measurement' }, { header: 'ours', align: 'right' }],
      [
        ['query 検索', '1 ms'],
        ['a | b', '20 ms'],
      ],
      { format: 'markdown', indent: 4 },
    );
    expect(lines).toEqual([
      '| measurement |  ours |',
      '|:------------|------:|',
      '| query 検索  |  1 ms |',
      '| a \\| b      | 20 ms |',
    ]);
  });
});
