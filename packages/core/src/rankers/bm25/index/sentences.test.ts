import { describe, expect, it } from 'vitest';
import { adjacentCount, firstSentence, sentenceEnd, writeVarint } from './sentences.js';

function sentenceOf(ids: readonly number[]): Uint8Array {
  const bytes = new Uint8Array(5 * (ids.length + 1));
  let at = writeVarint(bytes, 0, ids.length);
  for (const id of ids) at = writeVarint(bytes, at, id);
  return bytes.subarray(0, at);
}

describe('the first sentences of an index', () => {
  it('counts how often two term ids stand side by side, in that order', () => {
    const bytes = sentenceOf([5, 300, 5, 300, 300, 5, 70_000]);
    expect(adjacentCount(bytes, 0, 5, 300)).toBe(2);
    expect(adjacentCount(bytes, 0, 300, 5)).toBe(2);
    expect(adjacentCount(bytes, 0, 5, 70_000)).toBe(1);
    expect(adjacentCount(bytes, 0, 70_000, 5)).toBe(0);
  });

  it('finds where a sentence ends, so that the next one can be read', () => {
    const first = sentenceOf([1, 200, 16_384]);
    const both = new Uint8Array([...first, ...sentenceOf([7, 8])]);
    expect(sentenceEnd(both, 0)).toBe(first.length);
    expect(adjacentCount(both, first.length, 7, 8)).toBe(1);
  });

  it('cuts a description at its first sentence end, a line break or 400 characters', () => {
    expect(firstSentence('Reads a file. Then more.')).toBe('Reads a file');
    expect(firstSentence('v1.2 is kept\nnot this')).toBe('v1.2 is kept');
    expect(firstSentence('x'.repeat(500))).toHaveLength(400);
  });
});
