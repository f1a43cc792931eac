import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TOOL_SEARCH_CONFIG,
  formatConfigWarning,
  parseToolSearchConfig,
  parseToolSearchConfigWithWarnings,
  type ToolSearchConfigInput,
} from './config.js';

/** A logger that keeps what it is told. */
function recorder(): { warn(message: string): void; messages: string[] } {
  const messages: string[] = [];
  return { messages, warn: (message) => messages.push(message) };
}

describe('parseToolSearchConfig: what it ignores reaches the logger', () => {
  it('reports an unknown key, a bad value and a value that is not a config', () => {
    const logger = recorder();
    const typo = { enabeld: 'on' } as ToolSearchConfigInput;
    expect(parseToolSearchConfig(typo, { logger })).toEqual(DEFAULT_TOOL_SEARCH_CONFIG);
    expect(parseToolSearchConfig({ threshold: 5 } as ToolSearchConfigInput, { logger })).toEqual(
      DEFAULT_TOOL_SEARCH_CONFIG,
    );
    expect(parseToolSearchConfig({ thresholdPct: 'ten' }, { logger })).toEqual(
      DEFAULT_TOOL_SEARCH_CONFIG,
    );
    expect(parseToolSearchConfig(42 as unknown as ToolSearchConfigInput, { logger })).toEqual(
      DEFAULT_TOOL_SEARCH_CONFIG,
    );
    expect(logger.messages).toEqual([
      "tool search config: 'enabeld': unknown key, ignored",
      "tool search config: 'threshold': unknown key, ignored",
      `tool search config: 'thresholdPct': expected a number, got "ten"; using the default`,
      "tool search config: '(root)': expected an object, a boolean or 'auto'/'on'/'off', got 42; using the defaults",
    ]);
  });

  it('says nothing for a good config, nor for a parsed one passed on', () => {
    const logger = recorder();
    const config = parseToolSearchConfig({ enabled: 'on', threshold_pct: '15' }, { logger });
    expect(parseToolSearchConfig(config, { logger })).toEqual(config);
    expect(logger.messages).toEqual([]);
  });

  it('warns on console by default, and survives a logger that throws', () => {
    const warn = console.warn;
    const seen: unknown[] = [];
    console.warn = (message: unknown) => seen.push(message);
    try {
      parseToolSearchConfig({ enabeld: 'on' } as ToolSearchConfigInput);
    } finally {
      console.warn = warn;
    }
    expect(seen).toEqual(["tool search config: 'enabeld': unknown key, ignored"]);
    const throwing = {
      warn() {
        throw new Error('logger down');
      },
    };
    expect(
      parseToolSearchConfig(7 as unknown as ToolSearchConfigInput, { logger: throwing }),
    ).toEqual(DEFAULT_TOOL_SEARCH_CONFIG);
  });

  it('formats one warning as a sentence naming the key', () => {
    expect(formatConfigWarning({ key: 'threshold', message: 'unknown key, ignored' })).toBe(
      "tool search config: 'threshold': unknown key, ignored",
    );
  });
});

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
      // 'YES': case does not matter at run time, though the type spells the words lowercase.
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
        const config = parseToolSearchConfig(raw as ToolSearchConfigInput, {
          logger: { warn() {} },
        });
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
