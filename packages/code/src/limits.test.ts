import { ToolSearchError } from '@tool-search/core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROGRAM_LIMITS, resolveLimits } from './limits.js';

describe('resolveLimits', () => {
  it('keeps the defaults and takes the changes', () => {
    expect(resolveLimits({ maxCalls: 3 })).toEqual({ ...DEFAULT_PROGRAM_LIMITS, maxCalls: 3 });
  });

  it('refuses an unknown limit or one that is not a positive number, with the field', () => {
    for (const changes of [
      { maxCall: 3 },
      { maxCalls: 0 },
      { cpuTimeMs: Number.NaN },
      { wallTimeMs: '5' },
    ]) {
      try {
        resolveLimits(changes as never);
        expect.unreachable();
      } catch (error) {
        expect(ToolSearchError.isInstance(error) && error.code).toBe('invalid_argument');
        expect((error as ToolSearchError).data?.field).toMatch(/^limits\./);
      }
    }
  });
});
