import { describe, expect, it } from 'vitest';
import { embedByLength, type SentenceEncoder } from './sentence-hybrid.js';

describe('embedByLength', () => {
  it('embeds texts of like length together, 64 at a time, and answers in the order given', async () => {
    const calls: string[][] = [];
    // A stand-in encoder: a text's vector is its length.
    const encoder: SentenceEncoder = {
      embed: async (texts) => {
        calls.push(texts);
        return texts.map((text) => [text.length]);
      },
    };
    const texts = Array.from({ length: 150 }, (_, index) => 'x'.repeat((index * 37) % 101));
    const vectors = await embedByLength(encoder)(texts);
    expect(vectors).toEqual(texts.map((text) => [text.length]));
    expect(calls.map((batch) => batch.length)).toEqual([64, 64, 22]);
    const lengths = calls.flat().map((text) => text.length);
    expect(lengths).toEqual([...lengths].sort((a, b) => a - b));
  });
});
