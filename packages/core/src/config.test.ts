import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TOOL_SEARCH_CONFIG,
  parseToolSearchConfig,
  parseToolSearchConfigWithWarnings,
} from './config.js';

describe('parseToolSearchConfig', () => {
  it('fills the defaults: auto, 10%, 5 hits, at most 20', () => {
    expect(parseToolSearchConfig(undefined)).toEqual({
      enabled: 'auto',
      thresholdPct: 10,
      searchDefaultLimit: 5,
      maxSearchLimit: 20,
    });
    expect(parseToolSearchConfig({})).toEqual(DEFAULT_TOOL_SEARCH_CONFIG);
  });

  it('reads a legacy bare boolean: true is auto, false is off', () => {
    expect(parseToolSearchConfig(true).enabled).toBe('auto');
    expect(parseToolSearchConfig(false).enabled).toBe('off');
  });

  it('reads enabled in the object form: truthy words are on, falsy words are off', () => {
    for (const value of [true, 'true', 'yes', '1', 'on', 'YES']) {
      expect(parseToolSearchConfig({ enabled: value }).enabled).toBe('on');
    }
    for (const value of [false, 'false', 'no', '0', 'off']) {
      expect(parseToolSearchConfig({ enabled: value }).enabled).toBe('off');
    }
    expect(parseToolSearchConfig({ enabled: 'auto' }).enabled).toBe('auto');
  });

  it('falls back to auto for an invalid value and warns', () => {
    const { config, warnings } = parseToolSearchConfigWithWarnings({ enabled: 'sometimes' });
    expect(config.enabled).toBe('auto');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.key).toBe('enabled');
  });

  it('clamps the threshold to [0, 100]', () => {
    expect(parseToolSearchConfig({ thresholdPct: 150 }).thresholdPct).toBe(100);
    expect(parseToolSearchConfig({ threshold_pct: -5 }).thresholdPct).toBe(0);
    expect(parseToolSearchConfig({ threshold_pct: '25' }).thresholdPct).toBe(25);
  });

  it('clamps the limits: max to [1, 50], default to [1, max]', () => {
    expect(parseToolSearchConfig({ max_search_limit: 999 }).maxSearchLimit).toBe(50);
    expect(parseToolSearchConfig({ maxSearchLimit: 0 }).maxSearchLimit).toBe(1);
    const config = parseToolSearchConfig({ search_default_limit: 30, max_search_limit: 10 });
    expect(config.searchDefaultLimit).toBe(10);
    expect(parseToolSearchConfig({ searchDefaultLimit: -3 }).searchDefaultLimit).toBe(1);
  });

  it('takes an absolute threshold in tokens', () => {
    expect(parseToolSearchConfig({ threshold_tokens: 30_000 }).thresholdTokens).toBe(30_000);
    expect(parseToolSearchConfig({ thresholdTokens: -1 }).thresholdTokens).toBeUndefined();
  });

  it('warns about unknown keys and non-numbers and keeps the defaults', () => {
    const { config, warnings } = parseToolSearchConfigWithWarnings({
      threshold: 5,
      thresholdPct: 'lots',
    });
    expect(config.thresholdPct).toBe(10);
    expect(warnings.map((warning) => warning.key).sort()).toEqual(['threshold', 'thresholdPct']);
  });

  it('never throws and always returns values in range, for any JSON value', () => {
    const anyConfig = fc.oneof(
      fc.jsonValue(),
      fc.record(
        {
          enabled: fc.jsonValue(),
          thresholdPct: fc.oneof(fc.double(), fc.jsonValue()),
          threshold_tokens: fc.oneof(fc.double(), fc.jsonValue()),
          searchDefaultLimit: fc.oneof(fc.double(), fc.jsonValue()),
          max_search_limit: fc.oneof(fc.double(), fc.jsonValue()),
        },
        { requiredKeys: [] },
      ),
    );
    fc.assert(
      fc.property(anyConfig, (raw) => {
        const config = parseToolSearchConfig(raw);
        expect(['auto', 'on', 'off']).toContain(config.enabled);
        expect(config.thresholdPct).toBeGreaterThanOrEqual(0);
        expect(config.thresholdPct).toBeLessThanOrEqual(100);
        expect(config.maxSearchLimit).toBeGreaterThanOrEqual(1);
        expect(config.maxSearchLimit).toBeLessThanOrEqual(50);
        expect(Number.isInteger(config.maxSearchLimit)).toBe(true);
        expect(config.searchDefaultLimit).toBeGreaterThanOrEqual(1);
        expect(config.searchDefaultLimit).toBeLessThanOrEqual(config.maxSearchLimit);
        if (config.thresholdTokens !== undefined) {
          expect(config.thresholdTokens).toBeGreaterThanOrEqual(0);
        }
      }),
      { numRuns: 500 },
    );
  });
});
