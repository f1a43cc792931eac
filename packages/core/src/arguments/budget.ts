/**
 * The bounds of one argument check. A check runs synchronously on the caller's event
 * loop, so every cost that could grow without bound is counted against a step budget
 * that is fixed before the check starts, from the size of the arguments:
 *
 * - the arguments' size comes first (`DEFAULT_MAX_ARGUMENT_BYTES`);
 * - every evaluation of a subschema is one step; a subschema evaluated more than
 *   `MAX_EVALUATIONS_PER_SUBSCHEMA_BASE` + `EVALUATIONS_PER_SUBSCHEMA_PER_CHAR`
 *   per character of the arguments' JSON is exponential nesting (a recursive `anyOf`),
 *   and all of them together may take `MAX_EVALUATIONS_BASE` +
 *   `EVALUATIONS_PER_CHAR` per character;
 * - a `pattern` costs the length of its linear-time program times the string's length,
 *   at most `MAX_PATTERN_STEPS` a check;
 * - a `format` checks strings of at most `MAX_FORMAT_STRING_CHARS` characters,
 *   `MAX_FORMAT_CHARS` in all a check (some formats' expressions, `url` among
 *   them, take time quadratic in the string's length);
 * - `uniqueItems` is one hashing pass over the items, linear in their size.
 *
 * A check that overruns is not stopped halfway with an unknown verdict: the keyword
 * that spent the budget is left unchecked for that call (and reported), the rest runs
 * again, at most `MAX_CHECK_ATTEMPTS` times in all.
 */

/**
 * The largest arguments object `validateArguments` checks, in bytes of compact JSON
 * (UTF-8): 1 MiB. Larger arguments are refused before the schema is looked at, with a
 * `maxArgumentBytes` violation; the option `maxArgumentBytes` sets another limit.
 */
export const DEFAULT_MAX_ARGUMENT_BYTES = 1_048_576;

/** Subschema evaluations every check may spend, whatever the size of its arguments. */
export const MAX_EVALUATIONS_BASE = 100_000;
/** Subschema evaluations a check may spend, in addition, per character of the arguments' JSON. */
export const EVALUATIONS_PER_CHAR = 4;
/** Evaluations of one subschema every check may spend. */
export const MAX_EVALUATIONS_PER_SUBSCHEMA_BASE = 1_000;
/** Evaluations of one subschema a check may spend, in addition, per character of the arguments' JSON. */
export const EVALUATIONS_PER_SUBSCHEMA_PER_CHAR = 4;
/** Pattern steps (program instructions times string length) a check may spend. */
export const MAX_PATTERN_STEPS = 20_000_000;
/** The longest string a `format` is checked on. */
export const MAX_FORMAT_STRING_CHARS = 8_192;
/** Characters of strings all `format` checks of a check may read together. */
export const MAX_FORMAT_CHARS = 65_536;
/** How many times a check runs: the first time and after each keyword left unchecked. */
export const MAX_CHECK_ATTEMPTS = 3;

/** Thrown inside ajv's compiled code when a check has spent its evaluations. @internal */
export class BudgetExceeded extends Error {
  constructor(readonly location: number) {
    super('the argument check exceeded its budget');
  }
}

/** The running check's counters; one check runs at a time (checks are synchronous). @internal */
export interface RunningCheck {
  evaluations: number;
  maxEvaluations: number;
  maxPerSubschema: number;
  /** Evaluations per subschema location id. */
  counts: Uint32Array;
  patternSteps: number;
  /** Pattern sources whose test was skipped for the budget. */
  skippedPatterns: Set<string>;
  formatChars: number;
  /** Formats whose check was skipped for the budget. */
  skippedFormats: Set<string>;
}

let running: RunningCheck | undefined;

/** The check that runs now, if any. @internal */
export function runningCheck(): RunningCheck | undefined {
  return running;
}

/**
 * Runs `body` with fresh counters sized for `chars` characters of arguments and
 * `locations` subschemas.
 * @internal
 */
export function withBudget<T>(
  chars: number,
  locations: number,
  body: (check: RunningCheck) => T,
): T {
  const previous = running;
  const check: RunningCheck = {
    evaluations: 0,
    maxEvaluations: MAX_EVALUATIONS_BASE + EVALUATIONS_PER_CHAR * chars,
    maxPerSubschema:
      MAX_EVALUATIONS_PER_SUBSCHEMA_BASE + EVALUATIONS_PER_SUBSCHEMA_PER_CHAR * chars,
    counts: new Uint32Array(Math.max(locations, 1)),
    patternSteps: 0,
    skippedPatterns: new Set(),
    formatChars: 0,
    skippedFormats: new Set(),
  };
  running = check;
  try {
    return body(check);
  } finally {
    running = previous;
  }
}

/**
 * Counts one evaluation of the subschema at `location`; throws {@link BudgetExceeded}
 * past the budget. ajv calls it at every evaluation of every subschema.
 * @internal
 */
export function countEvaluation(location: number): true {
  const check = running;
  if (check === undefined) return true;
  const count = (check.counts[location] ?? 0) + 1;
  check.counts[location] = count;
  check.evaluations += 1;
  if (count > check.maxPerSubschema || check.evaluations > check.maxEvaluations) {
    throw new BudgetExceeded(location);
  }
  return true;
}

/**
 * Whether a pattern test of `cost` steps still fits the running check's budget; when
 * it does, the steps are spent. Outside a check every test fits.
 * @internal
 */
export function spendPatternSteps(source: string, cost: number): boolean {
  const check = running;
  if (check === undefined) return true;
  if (check.patternSteps + cost > MAX_PATTERN_STEPS) {
    check.skippedPatterns.add(source);
    return false;
  }
  check.patternSteps += cost;
  return true;
}

/**
 * Whether a `format` check of a string of `length` characters still fits the running
 * check's budget; when it does, the characters are spent. Outside a check every
 * string fits.
 * @internal
 */
export function spendFormatChars(format: string, length: number): boolean {
  const check = running;
  if (check === undefined) return true;
  if (length > MAX_FORMAT_STRING_CHARS || check.formatChars + length > MAX_FORMAT_CHARS) {
    check.skippedFormats.add(format);
    return false;
  }
  check.formatChars += length;
  return true;
}
