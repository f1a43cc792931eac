import { describe, expect, it } from 'vitest';
import { graphemes, stripAnsi, textWidth } from './text-width.js';

describe('textWidth', () => {
  it('counts ASCII and Latin letters one column each', () => {
    expect(textWidth('tool_search')).toBe(11);
    expect(textWidth('café')).toBe(4);
  });

  it('counts CJK ideographs, kana, Hangul and fullwidth forms two columns each', () => {
    expect(textWidth('日本語')).toBe(6);
    expect(textWidth('かな')).toBe(4);
    expect(textWidth('한국어')).toBe(6);
    expect(textWidth('ＡＢ')).toBe(4);
    expect(textWidth('検索 tool')).toBe(9);
  });

  it('counts emoji two columns, sequences and flags once', () => {
    expect(textWidth('🔍')).toBe(2);
    expect(textWidth('👍🏽')).toBe(2);
    expect(textWidth('👨‍👩‍👧')).toBe(2);
    expect(textWidth('🇯🇵')).toBe(2);
    expect(textWidth('❤️')).toBe(2);
  });

  it('keeps text-style pictographs such as check marks at one column', () => {
    expect(textWidth('✓ ok')).toBe(4);
    expect(textWidth('©')).toBe(1);
  });

  it('counts combining marks and zero-width characters zero columns', () => {
    expect(textWidth('e\u0301')).toBe(1);
    expect(textWidth('a\u200bb')).toBe(2);
    expect(textWidth('\u200d')).toBe(0);
    expect(textWidth('\u0301')).toBe(0);
  });

  it('ignores SGR escape codes', () => {
    expect(textWidth('\u001b[1m日本\u001b[22m')).toBe(4);
    expect(stripAnsi('\u001b[32mok\u001b[39m')).toBe('ok');
  });
});

describe('graphemes', () => {
  it('never splits a cluster and gives each its width', () => {
    expect(graphemes('e\u0301日👨‍👩‍👧')).toEqual([
      { cluster: 'e\u0301', width: 1 },
      { cluster: '日', width: 2 },
      { cluster: '👨‍👩‍👧', width: 2 },
    ]);
  });
});
