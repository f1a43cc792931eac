import { type ToolSearchLogger, warnEach } from './logger.js';
import { numberInput } from './number-input.js';
import type { RunawaySearchLimits } from './runaway-config.js';
import { parseRunawaySearchLimits } from './runaway-config.js';
import type { ToolLoading } from './tool-loading-kinds.js';
import { isToolLoading } from './tool-loading-kinds.js';

/** When tool search replaces the deferrable tools with the bridge tools. */
export type ToolSearchMode = 'auto' | 'on' | 'off';

/**
 * The tool search configuration. Build it with {@link parseToolSearchConfig}, which
 * fills defaults and clamps every number into range.
 */
export interface ToolSearchConfig {
  /**
   * `auto` activates when the deferrable tools would take `thresholdPct` of the
   * context window (or `thresholdTokens`); `on` whenever anything is deferrable; `off` never.
   * @defaultValue 'auto'
   */
  enabled: ToolSearchMode;
  /**
   * Share of the context window, in percent, at which `auto` activates. Clamped to [0, 100].
   * @defaultValue 10
   */
  thresholdPct: number;
  /** An absolute threshold in tokens; when set, it is used instead of `thresholdPct`. */
  thresholdTokens?: number;
  /**
   * The hysteresis band of `auto`, in percent of the threshold: a session whose decision
   * was active stays active until its deferrable tokens fall below the threshold minus
   * this share of it (see `decideActivation`). Clamped to [0, 100]; 0 turns it off.
   * @defaultValue 20 (`DEFAULT_HYSTERESIS_PCT`)
   */
  hysteresisPct?: number;
  /**
   * Hits returned by `tool_search` when the model gives no limit. Clamped to [1, maxSearchLimit].
   * @defaultValue 5
   */
  searchDefaultLimit: number;
  /**
   * The most hits `tool_search` returns. Clamped to [1, 50].
   * @defaultValue 20
   */
  maxSearchLimit: number;
  /**
   * How each toolset's tools are loaded, by toolset name (an MCP server's toolset is
   * `mcp-<server>`): `eager` never deferred, `deferred` deferred even below the
   * threshold, `auto` (the default) as the threshold decides. Pins still keep single
   * tools visible. Absent: every toolset `auto`.
   */
  toolsetLoading?: Record<string, ToolLoading>;
  /**
   * The limits that stop a model looping on `tool_search`; absent means the defaults
   * (`DEFAULT_RUNAWAY_SEARCH_LIMITS`). Read by the bridge's session state.
   */
  runaway?: RunawaySearchLimits;
}

/**
 * How `enabled` (or `mode`) may be written: a mode, a boolean (`true` → `'on'`), or the
 * words YAML and environment variables use (`'yes'`, `'true'`, `'1'` → `'on'`; `'no'`,
 * `'false'`, `'0'` → `'off'`). Case and surrounding spaces do not matter at run time.
 * Any other string type-checks (a `string` variable from a settings file must pass), and
 * at run time falls back to `'auto'` with a warning to the logger.
 */
export type ToolSearchModeInput =
  | ToolSearchMode
  | boolean
  | 'true'
  | 'false'
  | 'yes'
  | 'no'
  | '1'
  | '0'
  | 0
  | 1
  // Keeps the words above as editor suggestions while accepting a widened `string`.
  | (string & {});

/**
 * A number as written in a config: a number, or a numeric string (`'15'`, as YAML and
 * environment variables give it). A string that is not a number falls back to the
 * default with a warning.
 */
export type ConfigNumberInput = number | string;

/**
 * The object form of a tool search config as a user writes it: every field optional,
 * camelCase or snake_case, numbers as numbers or numeric strings. A parsed
 * {@link ToolSearchConfig} is one. TypeScript rejects an unknown key in an object literal
 * (`{ enabeld: 'on' }`); at run time, {@link parseToolSearchConfig} reports it.
 */
export interface ToolSearchConfigObjectInput {
  /** See {@link ToolSearchConfig.enabled}. @defaultValue 'auto' */
  enabled?: ToolSearchModeInput;
  /** Another name of `enabled`. */
  mode?: ToolSearchModeInput;
  /** See {@link ToolSearchConfig.thresholdPct}. @defaultValue 10 */
  thresholdPct?: ConfigNumberInput;
  /** The snake_case name of `thresholdPct`. */
  threshold_pct?: ConfigNumberInput;
  /** See {@link ToolSearchConfig.thresholdTokens}. */
  thresholdTokens?: ConfigNumberInput | undefined;
  /** The snake_case name of `thresholdTokens`. */
  threshold_tokens?: ConfigNumberInput;
  /** See {@link ToolSearchConfig.searchDefaultLimit}. @defaultValue 5 */
  searchDefaultLimit?: ConfigNumberInput;
  /** The snake_case name of `searchDefaultLimit`. */
  search_default_limit?: ConfigNumberInput;
  /** See {@link ToolSearchConfig.maxSearchLimit}. @defaultValue 20 */
  maxSearchLimit?: ConfigNumberInput;
  /** The snake_case name of `maxSearchLimit`. */
  max_search_limit?: ConfigNumberInput;
  /** See {@link ToolSearchConfig.toolsetLoading}: toolset name → `'eager' | 'deferred' | 'auto'`. */
  toolsetLoading?: Record<string, ToolLoading | (string & {})>;
  /** The snake_case name of `toolsetLoading`. */
  toolset_loading?: Record<string, ToolLoading | (string & {})>;
  /**
   * See {@link ToolSearchConfig.runaway}: `repeatWindowMs`, `nudgeAfter`, `maxSearches`,
   * `windowMs`, or their snake_case names.
   */
  runaway?: Partial<RunawaySearchLimits> | Record<string, ConfigNumberInput>;
  /** See {@link ToolSearchConfig.hysteresisPct}. @defaultValue 20 */
  hysteresisPct?: ConfigNumberInput;
  /** The snake_case name of `hysteresisPct`. */
  hysteresis_pct?: ConfigNumberInput;
}

/**
 * Every form {@link parseToolSearchConfig} accepts: the object form, a bare mode
 * (`'auto'`, `'on'`, `'off'`), the legacy boolean (`true` → `'auto'`, `false` → `'off'`),
 * or nothing (the defaults). Untyped input (a parsed YAML or JSON file) goes through
 * {@link parseToolSearchConfigWithWarnings}, which takes `unknown`.
 */
export type ToolSearchConfigInput =
  | ToolSearchConfigObjectInput
  | ToolSearchMode
  | boolean
  | null
  | undefined;

/** Options of {@link parseToolSearchConfig}. */
export interface ParseToolSearchConfigOptions {
  /**
   * Receives one warning per key that was not used as written (an unknown key, a bad
   * value replaced by its default, a value that is not a config at all), each
   * formatted by {@link formatConfigWarning}. Pass `{ warn() {} }` to silence them.
   * @defaultValue `console`
   */
  logger?: ToolSearchLogger;
}

/** The defaults of every {@link ToolSearchConfig} field. */
export const DEFAULT_TOOL_SEARCH_CONFIG: Readonly<ToolSearchConfig> = Object.freeze({
  enabled: 'auto',
  thresholdPct: 10,
  searchDefaultLimit: 5,
  maxSearchLimit: 20,
});

/** The largest `maxSearchLimit` accepted. */
export const MAX_SEARCH_LIMIT_CEILING = 50;

/** A warning produced while parsing a configuration: which key, and what was done. */
export interface ConfigWarning {
  /** The key as written, e.g. `threshold_pct`. */
  key: string;
  /** What was wrong and which value was used instead. */
  message: string;
}

const ON = new Set(['true', 'yes', '1', 'on']);
const OFF = new Set(['false', 'no', '0', 'off']);

const KEY_ALIASES: Record<string, keyof ToolSearchConfig> = {
  enabled: 'enabled',
  mode: 'enabled',
  thresholdPct: 'thresholdPct',
  threshold_pct: 'thresholdPct',
  thresholdTokens: 'thresholdTokens',
  threshold_tokens: 'thresholdTokens',
  hysteresisPct: 'hysteresisPct',
  hysteresis_pct: 'hysteresisPct',
  searchDefaultLimit: 'searchDefaultLimit',
  search_default_limit: 'searchDefaultLimit',
  maxSearchLimit: 'maxSearchLimit',
  max_search_limit: 'maxSearchLimit',
};

// A finite number, or a string of one (`'12'`, `' 2.5 '`).
const NUMBER_TEXT = /^[-+]?\d+(\.\d+)?$/;

function parseMode(value: unknown): ToolSearchMode | undefined {
  if (value === true) return 'on';
  if (value === false) return 'off';
  if (typeof value === 'number') return value === 1 ? 'on' : value === 0 ? 'off' : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim().toLowerCase();
  if (text === 'auto') return 'auto';
  if (ON.has(text)) return 'on';
  if (OFF.has(text)) return 'off';
  return undefined;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

function show(value: unknown): string {
  try {
    return JSON.stringify(value)?.slice(0, 80) ?? String(value);
  } catch {
    return String(value);
  }
}

function parseToolsetLoading(
  key: string,
  value: unknown,
  warnings: ConfigWarning[],
): Record<string, ToolLoading> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    warnings.push({
      key,
      message: `expected an object of toolset: loading, got ${show(value)}; ignored`,
    });
    return undefined;
  }
  const loading: Record<string, ToolLoading> = {};
  for (const [toolset, entry] of Object.entries(value as Record<string, unknown>)) {
    const text = typeof entry === 'string' ? entry.trim().toLowerCase() : entry;
    if (isToolLoading(text)) loading[toolset] = text;
    else {
      warnings.push({
        key: `${key}.${toolset}`,
        message: `expected 'eager', 'deferred' or 'auto', got ${show(entry)}; using 'auto'`,
      });
    }
  }
  return loading;
}

/**
 * Parses a tool search configuration from any value (a YAML or JSON section, CLI
 * flags, a user setting) and reports what it could not use. Never throws.
 *
 * Accepts camelCase and snake_case keys (`threshold_pct`, `threshold_tokens`, `hysteresis_pct`,
 * `search_default_limit`, `max_search_limit`, `toolset_loading`, `runaway` with
 * `repeat_window_ms`, `nudge_after`, `max_searches`, `window_ms`). A bare boolean is the legacy form:
 * `true` → `'auto'`, `false` → `'off'`; a bare mode string (`'auto'`, `'on'`, `'off'`)
 * sets the mode. In the object form, `enabled` accepts `'auto'`, `true`/`'true'`/`'yes'`/`'1'`
 * → `'on'` and `false`/`'false'`/`'no'`/`'0'` → `'off'`; anything else → `'auto'` with a warning.
 * Numbers are clamped: `thresholdPct` to [0, 100], `maxSearchLimit` to [1, 50],
 * `searchDefaultLimit` to [1, maxSearchLimit]; a value that is not a number falls back
 * to its default with a warning.
 *
 * @param raw - any value (typed `unknown`: this is the function for untyped input, such as
 *   a parsed file)
 * @returns the config and the warnings, one per key that was not used as written
 * @throws nothing
 */
export function parseToolSearchConfigWithWarnings(raw: unknown): {
  config: ToolSearchConfig;
  warnings: ConfigWarning[];
} {
  const config: ToolSearchConfig = { ...DEFAULT_TOOL_SEARCH_CONFIG };
  const warnings: ConfigWarning[] = [];
  if (raw === undefined || raw === null) return { config, warnings };
  if (typeof raw === 'boolean') {
    config.enabled = raw ? 'auto' : 'off';
    return { config, warnings };
  }
  if (typeof raw === 'string' && ['auto', 'on', 'off'].includes(raw.trim().toLowerCase())) {
    config.enabled = raw.trim().toLowerCase() as ToolSearchMode;
    return { config, warnings };
  }
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    warnings.push({
      key: '(root)',
      message: `expected an object, a boolean or 'auto'/'on'/'off', got ${show(raw)}; using the defaults`,
    });
    return { config, warnings };
  }

  const numbers: Partial<Record<keyof ToolSearchConfig, number>> = {};
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (key === 'runaway') {
      config.runaway = parseRunawaySearchLimits(value, (at, message) =>
        warnings.push({ key: at, message }),
      );
      continue;
    }
    if (key === 'toolsetLoading' || key === 'toolset_loading') {
      const loading = parseToolsetLoading(key, value, warnings);
      if (loading !== undefined) config.toolsetLoading = loading;
      continue;
    }
    const field = KEY_ALIASES[key];
    if (field === undefined) {
      warnings.push({ key, message: 'unknown key, ignored' });
      continue;
    }
    if (field === 'enabled') {
      const mode = parseMode(value);
      if (mode === undefined) {
        warnings.push({ key, message: `unknown value ${show(value)}; using 'auto'` });
        config.enabled = 'auto';
      } else {
        config.enabled = mode;
      }
      continue;
    }
    if (value === undefined || value === null) continue;
    const parsed = numberInput(value, NUMBER_TEXT);
    if (parsed === undefined) {
      warnings.push({ key, message: `expected a number, got ${show(value)}; using the default` });
      continue;
    }
    numbers[field] = parsed;
  }

  if (numbers.thresholdPct !== undefined) {
    config.thresholdPct = clamp(numbers.thresholdPct, 0, 100);
  }
  if (numbers.thresholdTokens !== undefined) {
    if (numbers.thresholdTokens >= 0) config.thresholdTokens = Math.floor(numbers.thresholdTokens);
    else warnings.push({ key: 'thresholdTokens', message: 'must not be negative; ignored' });
  }
  if (numbers.hysteresisPct !== undefined) {
    config.hysteresisPct = clamp(numbers.hysteresisPct, 0, 100);
  }
  if (numbers.maxSearchLimit !== undefined) {
    config.maxSearchLimit = clamp(Math.floor(numbers.maxSearchLimit), 1, MAX_SEARCH_LIMIT_CEILING);
  }
  if (numbers.searchDefaultLimit !== undefined) {
    config.searchDefaultLimit = Math.floor(numbers.searchDefaultLimit);
  }
  config.searchDefaultLimit = clamp(config.searchDefaultLimit, 1, config.maxSearchLimit);
  return { config, warnings };
}

/**
 * The sentence a logger receives for one {@link ConfigWarning}:
 * `tool search config: 'enabeld': unknown key, ignored`.
 *
 * @param warning - a warning of {@link parseToolSearchConfigWithWarnings}
 * @returns the sentence
 * @throws nothing
 */
export function formatConfigWarning(warning: ConfigWarning): string {
  return `tool search config: '${warning.key}': ${warning.message}`;
}

/**
 * Parses a tool search configuration, with defaults and clamps, and reports what it
 * could not use through `options.logger` (by default `console.warn`): an unknown key
 * (`{ enabeld: 'on' }`), a bad value (`{ thresholdPct: 'ten' }`), a value that is not a
 * config (`42`). Never throws. A parsed {@link ToolSearchConfig} parses to itself without
 * a warning, so parse once and pass the result on.
 *
 * @example
 * ```ts
 * parseToolSearchConfig({ enabled: 'yes', threshold_pct: 150 });
 * // → { enabled: 'on', thresholdPct: 100, searchDefaultLimit: 5, maxSearchLimit: 20 }
 * parseToolSearchConfig(settings.toolSearch, { logger: log }); // log.warn gets the typos
 * ```
 *
 * @param raw - the config in any form of {@link ToolSearchConfigInput}
 * @param options.logger - receives the warnings @defaultValue `console`
 * @returns a complete, in-range {@link ToolSearchConfig}
 * @throws nothing (a logger that throws is ignored)
 */
export function parseToolSearchConfig(
  raw?: ToolSearchConfigInput,
  options: ParseToolSearchConfigOptions = {},
): ToolSearchConfig {
  const { config, warnings } = parseToolSearchConfigWithWarnings(raw);
  if (warnings.length > 0) warnEach(options.logger ?? console, warnings.map(formatConfigWarning));
  return config;
}
