import { numberInput } from './number-input.js';

/**
 * The limits that stop a model looping on `tool_search` (one session's searches). Each
 * number is configurable; `0` turns its rule off.
 */
export interface RunawaySearchLimits {
  /**
   * A query identical to an earlier one of the session (after analysis: `Send emails` and
   * `send email` are the same) within this many milliseconds is answered "already
   * searched", with the same hits and a hint, instead of a fresh ranking. `0`: never.
   * @defaultValue 600000 (10 minutes)
   */
  repeatWindowMs: number;
  /**
   * After this many consecutive searches without a successful call, each answer carries a
   * `nudge` naming the best hits and the `select:` syntax. `0`: never.
   * @defaultValue 5
   */
  nudgeAfter: number;
  /**
   * The most searches a session may make within {@link RunawaySearchLimits.windowMs}: the
   * next one is refused (`search_limit`). `select:` loads are not counted. `0`: no cap.
   * @defaultValue 40
   */
  maxSearches: number;
  /**
   * The sliding window of {@link RunawaySearchLimits.maxSearches}, in milliseconds.
   * @defaultValue 600000 (10 minutes)
   */
  windowMs: number;
}

/** The defaults of {@link RunawaySearchLimits}. */
export const DEFAULT_RUNAWAY_SEARCH_LIMITS: Readonly<RunawaySearchLimits> = Object.freeze({
  repeatWindowMs: 600_000,
  nudgeAfter: 5,
  maxSearches: 40,
  windowMs: 600_000,
});

const LIMIT_KEYS: Record<string, keyof RunawaySearchLimits> = {
  repeatWindowMs: 'repeatWindowMs',
  repeat_window_ms: 'repeatWindowMs',
  nudgeAfter: 'nudgeAfter',
  nudge_after: 'nudgeAfter',
  maxSearches: 'maxSearches',
  max_searches: 'maxSearches',
  windowMs: 'windowMs',
  window_ms: 'windowMs',
};

// A finite number, or a string of digits.
const DIGITS = /^\d+$/;

/**
 * Reads the `runaway` section of a tool search config (camelCase or snake_case keys),
 * filling defaults; a key that is unknown or not a non-negative number is reported and
 * left at its default.
 *
 * @param raw - the section as written
 * @param warn - told of each key that was not used as written (its key and why)
 * @returns complete limits
 * @throws nothing
 */
export function parseRunawaySearchLimits(
  raw: unknown,
  warn: (key: string, message: string) => void,
): RunawaySearchLimits {
  const limits: RunawaySearchLimits = { ...DEFAULT_RUNAWAY_SEARCH_LIMITS };
  if (raw === undefined || raw === null) return limits;
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    warn('runaway', 'expected an object; using the defaults');
    return limits;
  }
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    const field = LIMIT_KEYS[key];
    if (field === undefined) {
      warn(`runaway.${key}`, 'unknown key, ignored');
      continue;
    }
    const parsed = numberInput(value, DIGITS);
    if (parsed === undefined || parsed < 0) {
      warn(`runaway.${key}`, 'expected a number of at least 0; using the default');
      continue;
    }
    limits[field] = Math.floor(parsed);
  }
  return limits;
}
