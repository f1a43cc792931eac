import { describe, expect, it } from 'vitest';
import { decideActivation } from './activation.js';
import { parseToolSearchConfig } from './config.js';

const auto = parseToolSearchConfig({});

describe('decideActivation', () => {
  it('never activates when off, even at 1M tokens', () => {
    const decision = decideActivation({
      deferrableTokens: 1_000_000,
      contextWindow: 200_000,
      config: parseToolSearchConfig({ enabled: false }),
    });
    expect(decision).toMatchObject({ active: false, reason: 'disabled' });
  });

  it('does not activate on with zero deferrable tokens, and does with any', () => {
    const on = parseToolSearchConfig({ enabled: 'on' });
    expect(decideActivation({ deferrableTokens: 0, config: on }).active).toBe(false);
    expect(decideActivation({ deferrableTokens: 1, config: on })).toMatchObject({
      active: true,
      reason: 'forced-on',
    });
  });

  it('auto at 10% of 200k: 10k stays off, 20k (inclusive) and 50k activate', () => {
    const at = (tokens: number) =>
      decideActivation({ deferrableTokens: tokens, contextWindow: 200_000, config: auto });
    expect(at(10_000)).toMatchObject({ active: false, thresholdTokens: 20_000 });
    expect(at(19_999).active).toBe(false);
    expect(at(20_000)).toMatchObject({ active: true, reason: 'above-threshold' });
    expect(at(50_000).active).toBe(true);
  });

  it('auto with an unknown or zero context window uses 20,000 tokens', () => {
    expect(decideActivation({ deferrableTokens: 10_000, config: auto }).active).toBe(false);
    expect(decideActivation({ deferrableTokens: 25_000, config: auto }).active).toBe(true);
    expect(
      decideActivation({ deferrableTokens: 25_000, contextWindow: 0, config: auto }),
    ).toMatchObject({ active: true, thresholdTokens: 20_000 });
  });

  it('uses thresholdTokens instead of the percentage when set', () => {
    const config = parseToolSearchConfig({ threshold_tokens: 30_000 });
    const decision = decideActivation({
      deferrableTokens: 40_000,
      contextWindow: 1_000_000,
      config,
    });
    expect(decision).toMatchObject({ active: true, thresholdTokens: 30_000 });
    expect(
      decideActivation({ deferrableTokens: 29_999, contextWindow: 1_000, config }).active,
    ).toBe(false);
  });
});
