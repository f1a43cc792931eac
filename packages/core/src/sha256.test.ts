import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256Base64url, sha256Hex } from './sha256.js';

// Tool names and learned-data keys are made of these digests: they must be Node's.
describe('sha256', () => {
  it('gives the digests of node:crypto, hex and base64url, on any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (text) => {
        expect(sha256Hex(text)).toBe(createHash('sha256').update(text).digest('hex'));
        expect(sha256Base64url(text)).toBe(createHash('sha256').update(text).digest('base64url'));
      }),
      { numRuns: 300 },
    );
  });

  it('is right at the block edges (55, 56, 63, 64 and 119 bytes) and on the empty text', () => {
    for (const length of [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000]) {
      const text = 'a'.repeat(length);
      expect(sha256Hex(text)).toBe(createHash('sha256').update(text).digest('hex'));
    }
    expect(sha256Hex('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });
});
