/**
 * Configuration: parse any form (YAML section, JSON, CLI flag), see what was
 * clamped or ignored, and what the activation gate makes of it.
 */
import { strict as assert } from 'node:assert';
import {
  activationThreshold,
  decideActivation,
  parseToolSearchConfig,
  parseToolSearchConfigWithWarnings,
  type ToolSearchConfigInput,
} from '@tool-search/core';

// #region parse
// e.g. the `tool_search:` section of a YAML settings file, snake_case, with mistakes.
const { config, warnings } = parseToolSearchConfigWithWarnings({
  enabled: 'auto',
  threshold_pct: 150, // clamped to 100
  search_default_limit: 80, // clamped to max_search_limit
  max_search_limit: 30,
  colour: 'blue', // unknown key: ignored, with a warning
});
console.log(config);
// { enabled: 'auto', thresholdPct: 100, searchDefaultLimit: 30, maxSearchLimit: 30 }
console.log(warnings);
// [ { key: 'colour', message: 'unknown key, ignored' } ]
// #endregion parse

// #region logger
// The typed form: TypeScript rejects `{ enabeld: 'on' }` in a literal; untyped input
// (here, a settings file) reaches the logger instead (console.warn by default).
const settings = JSON.parse('{ "enabeld": "on", "threshold": 5 }') as ToolSearchConfigInput;
const heard: string[] = [];
const parsed = parseToolSearchConfig(settings, { logger: { warn: (line) => heard.push(line) } });
console.log(parsed.enabled, heard);
// auto [ "tool search config: 'enabeld': unknown key, ignored",
//        "tool search config: 'threshold': unknown key, ignored" ]
// #endregion logger

// #region gate
const auto = parseToolSearchConfig(true); // the legacy boolean: true → 'auto'
activationThreshold(auto, 200_000); // 20_000: 10% of the window
activationThreshold(auto); // 20_000: the fallback for an unknown window
activationThreshold({ ...auto, thresholdTokens: 5_000 }, 200_000); // 5_000 wins over the percentage
decideActivation({ deferrableTokens: 19_999, contextWindow: 200_000, config: auto });
// { active: false, reason: 'below-threshold', deferrableTokens: 19999, thresholdTokens: 20000 }
decideActivation({ deferrableTokens: 20_000, contextWindow: 200_000, config: auto });
// { active: true, reason: 'above-threshold', deferrableTokens: 20000, thresholdTokens: 20000 }
// #endregion gate

assert.deepEqual(config, {
  enabled: 'auto',
  thresholdPct: 100,
  searchDefaultLimit: 30,
  maxSearchLimit: 30,
});
assert.deepEqual(warnings, [{ key: 'colour', message: 'unknown key, ignored' }]);
assert.equal(parsed.enabled, 'auto');
assert.deepEqual(heard, [
  "tool search config: 'enabeld': unknown key, ignored",
  "tool search config: 'threshold': unknown key, ignored",
]);
assert.equal(parseToolSearchConfig('off').enabled, 'off');
assert.equal(parseToolSearchConfig({ enabled: 'yes' }).enabled, 'on');
assert.equal(activationThreshold({ ...auto, thresholdTokens: 5_000 }, 200_000), 5_000);
assert.equal(
  decideActivation({ deferrableTokens: 19_999, contextWindow: 200_000, config: auto }).active,
  false,
);
assert.equal(
  decideActivation({ deferrableTokens: 20_000, contextWindow: 200_000, config: auto }).active,
  true,
);
