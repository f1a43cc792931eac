import { describe, expect, it } from 'vitest';
import { appendableBuffer, appendBytes } from './shared-buffer.js';

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

describe('appendBytes', () => {
  it('appends past the used bytes, growing the buffer, and says where they start', () => {
    const own = appendableBuffer(undefined, 0, 2);
    expect(appendBytes(own, new Uint8Array(20).fill(1))).toBe(0);
    expect(appendBytes(own, new Uint8Array([2, 3]))).toBe(20);
    expect(own.used).toBe(22);
    expect([...own.bytes.subarray(19, 22)]).toEqual([1, 2, 3]);
  });
});
