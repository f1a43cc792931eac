import { describe, expect, it } from 'vitest';
import { DEFAULT_HYSTERESIS_PCT, decideActivation, hysteresisFloor } from './activation.js';
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

describe('decideActivation with the previous decision (hysteresis)', () => {
  const config = parseToolSearchConfig({ threshold_tokens: 10_000 });
  const at = (tokens: number, previous?: Parameters<typeof decideActivation>[0]['previous']) =>
    decideActivation({ deferrableTokens: tokens, config, ...(previous ? { previous } : {}) });

  it('keeps an active decision active within the band under the threshold, and drops it below', () => {
    const active = at(12_000);
    expect(active).toMatchObject({ active: true, reason: 'above-threshold' });
    // The default band is 20% of the threshold: 8,000 tokens still hold, 7,999 do not.
    expect(at(8_000, active)).toMatchObject({ active: true, reason: 'within-band' });
    expect(at(7_999, active)).toMatchObject({ active: false, reason: 'below-threshold' });
    // A held decision holds on while the size stays within the band.
    const held = at(9_000, active);
    expect(at(8_500, held)).toMatchObject({ active: true, reason: 'within-band' });
  });

  it('activates only above the threshold, whatever the previous decision', () => {
    const inactive = at(5_000);
    expect(at(9_999, inactive).active).toBe(false);
    expect(at(9_999).active).toBe(false);
    expect(at(10_000, inactive)).toMatchObject({ active: true, reason: 'above-threshold' });
  });

  it('takes its band from hysteresisPct (0 turns it off, values are clamped)', () => {
    const none = parseToolSearchConfig({ threshold_tokens: 10_000, hysteresis_pct: 0 });
    const wide = parseToolSearchConfig({ threshold_tokens: 10_000, hysteresisPct: 500 });
    const previous = { active: true, reason: 'above-threshold' } as const;
    expect(decideActivation({ deferrableTokens: 9_999, config: none, previous }).active).toBe(
      false,
    );
    expect(wide.hysteresisPct).toBe(100);
    expect(decideActivation({ deferrableTokens: 1, config: wide, previous })).toMatchObject({
      active: true,
      reason: 'within-band',
    });
    expect(hysteresisFloor({}, 20_000)).toBe(20_000 - (20_000 * DEFAULT_HYSTERESIS_PCT) / 100);
  });

  it('holds only a decision the threshold made: not a forced or toolset one, never when off or empty', () => {
    const forced = { active: true, reason: 'forced-on' } as const;
    const deferredToolset = { active: true, reason: 'toolset-deferred' } as const;
    expect(at(9_000, forced).active).toBe(false);
    expect(at(9_000, deferredToolset).active).toBe(false);
    const held = { active: true, reason: 'above-threshold' } as const;
    expect(at(0, held)).toMatchObject({ active: false, reason: 'nothing-deferrable' });
    const off = parseToolSearchConfig({ enabled: 'off', threshold_tokens: 10_000 });
    expect(decideActivation({ deferrableTokens: 9_000, config: off, previous: held }).active).toBe(
      false,
    );
  });
});
