import { describe, expect, it } from 'vitest';
import { truncate, wrapText } from './fit-text.js';
import { textWidth } from './text-width.js';

describe('truncate', () => {
  it('flattens white space and keeps a text that fits', () => {
    expect(truncate('a  b\nc', 10)).toBe('a b c');
  });

  it('cuts to the width in columns, ellipsis included', () => {
    expect(truncate('abcdefgh', 5)).toBe('abcd…');
    expect(truncate('日本語のテキスト', 7)).toBe('日本語…');
    expect(textWidth(truncate('日本語のテキスト', 7))).toBe(7);
  });

  it('never splits a grapheme cluster', () => {
    expect(truncate('e\u0301e\u0301e\u0301e\u0301', 3)).toBe('e\u0301e\u0301…');
    expect(truncate('👨‍👩‍👧👨‍👩‍👧', 3)).toBe('👨‍👩‍👧…');
  });
});

describe('wrapText', () => {
  it('wraps at word boundaries and marks dropped lines', () => {
    expect(wrapText('one two three four', 9)).toEqual(['one two', 'three', 'four']);
    expect(wrapText('one two three four', 9, 2)).toEqual(['one two', 'three …']);
  });

  it('measures wide words in columns', () => {
    expect(wrapText('日本 語の 検索', 9)).toEqual(['日本 語の', '検索']);
  });
});
