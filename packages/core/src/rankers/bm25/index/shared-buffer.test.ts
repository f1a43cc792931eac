import { describe, expect, it } from 'vitest';
import { appendableBuffer } from './shared-buffer.js';

describe('appendableBuffer', () => {
  it('appends in place when nothing was appended past the prefix a build starts from', () => {
    const shared = { bytes: new Uint8Array([1, 2, 3, 0]), used: 3 };
    expect(appendableBuffer(shared, 3, 8)).toBe(shared);
  });

  it('copies the prefix when another index appended past it, leaving the shared bytes alone', () => {
    const shared = { bytes: new Uint8Array([1, 2, 3, 4]), used: 4 };
    const own = appendableBuffer(shared, 2, 8);
    expect(own).not.toBe(shared);
    expect([...own.bytes.subarray(0, own.used)]).toEqual([1, 2]);
    own.bytes[own.used++] = 9;
    expect([...shared.bytes]).toEqual([1, 2, 3, 4]);
  });

  it('starts an empty buffer when there is none yet', () => {
    const own = appendableBuffer(undefined, 0, 4);
    expect(own.used).toBe(0);
    expect(own.bytes.length).toBeGreaterThanOrEqual(4);
  });
});
