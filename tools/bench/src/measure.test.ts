import { describe, expect, it } from 'vitest';
import { AUTO_SETTLE_MS_PER_MIB, autoSettleMs, collectBeforeSample } from './measure.js';

describe('the idle time after a collection', () => {
  it('scales with the heap, between 10 and 500 ms', () => {
    expect(autoSettleMs(0)).toBe(10);
    expect(autoSettleMs(660 * 1_048_576)).toBe(Math.ceil(660 * AUTO_SETTLE_MS_PER_MIB));
    expect(autoSettleMs(64 * 1024 * 1_048_576)).toBe(500);
  });

  it('gives none without --expose-gc, and the number asked with it', async () => {
    const exposed = typeof (globalThis as { gc?: unknown }).gc === 'function';
    expect(await collectBeforeSample(25)).toBe(exposed ? 25 : 0);
    expect(await collectBeforeSample(0)).toBe(0);
  });
});
