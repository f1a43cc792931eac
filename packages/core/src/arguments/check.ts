import type { ErrorObject } from 'ajv';
import { describeError, ToolSearchError } from '../errors.js';
import { compiledSchema, type PatternEngine } from './compile.js';
import { type ArgumentRepair, repairArguments } from './repair.js';
import { type ArgumentViolation, toViolation } from './violations.js';

/** Options of {@link validateArguments}. */
export interface ValidateArgumentsOptions {
  /**
   * How a schema's `pattern` and `patternProperties` run on the arguments.
   * `'linear'`: RE2 semantics (the `re2js` engine), linear in the input's length, so a
   * hostile pattern such as `^(a+)+$` cannot stall the process; a schema with a pattern
   * that needs lookaround or backreferences is then `unchecked`. `'native'`:
   * JavaScript's `RegExp` (every ECMAScript pattern, but a catastrophic one can take
   * exponential time: only for schemas you trust).
   * @defaultValue `'linear'`
   */
  patterns?: PatternEngine;
  /**
   * Repair what is unambiguous before judging: a string of digits for an integer or a
   * number, `"true"`/`"false"` for a boolean, `""` or `"{}"` for an object that
   * requires no field. Off, the arguments are judged exactly as sent.
   * @defaultValue true
   */
  repair?: boolean;
  /**
   * How many violations an `invalid` result lists (`total` counts them all).
   * @defaultValue 50
   */
  maxViolations?: number;
}

/** Arguments that fit the schema, as sent or repaired. */
export interface ArgumentsValid {
  status: 'valid';
  /** What to dispatch: the arguments as sent when `repairs` is empty, else a repaired copy. */
  arguments: Record<string, unknown>;
  /** What was repaired; empty when the arguments fitted as sent. */
  repairs: ArgumentRepair[];
}

/** Arguments that break the schema even after the repairs. */
export interface ArgumentsInvalid {
  status: 'invalid';
  /** The violations (of the repaired arguments), at most `maxViolations`, duplicates dropped. */
  violations: ArgumentViolation[];
  /** How many distinct violations there were in all. */
  total: number;
}

/**
 * A schema that cannot be checked: not an object, malformed, with an external `$ref`,
 * or (with linear patterns) a pattern the linear engine cannot run. The caller decides:
 * the bridge dispatches such a call untouched (fail open), the hooks' schema guardrail
 * denies it (fail closed).
 */
export interface ArgumentsUnchecked {
  status: 'unchecked';
  /** Why, in words (the compiler's message). */
  reason: string;
}

/** The result of {@link validateArguments}. */
export type ArgumentCheck = ArgumentsValid | ArgumentsInvalid | ArgumentsUnchecked;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function violationsOf(errors: readonly ErrorObject[], max: number): ArgumentsInvalid {
  const seen = new Set<string>();
  const violations: ArgumentViolation[] = [];
  for (const error of errors) {
    const violation = toViolation(error);
    const key = `${violation.path}\u0000${violation.constraint}\u0000${violation.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (violations.length < max) violations.push(violation);
  }
  return { status: 'invalid', violations, total: seen.size };
}

/**
 * Checks a call's arguments against its tool's input schema (JSON Schema: 2020-12,
 * 2019-09 or draft-07 as declared by `$schema`; without one, 2020-12 and then
 * draft-07), after repairing what is unambiguous, and answers with the arguments to
 * dispatch, the violations (each with its `path` and `constraint`), or `unchecked` when
 * the schema cannot be checked.
 *
 * Unknown keywords are ignored, formats (`email`, `uri`, `date-time`, ...) are
 * checked, and OpenAPI's `nullable: true` lets `null` through (an `enum` too). Each
 * schema is compiled once: by identity, then by content (the last 1,000 distinct
 * schemas per pattern engine), so a rebuilt tool list costs nothing while its schemas
 * stay the same. ajv and re2js load on the first call, not on import.
 *
 * @example
 * ```ts
 * import { validateArguments } from '@tool-search/core/validate';
 *
 * const schema = { type: 'object', properties: { count: { type: 'integer' } } };
 * validateArguments(schema, { count: '42' });
 * // { status: 'valid', arguments: { count: 42 }, repairs: [{ path: 'arguments.count', from: '42', to: 42 }] }
 * validateArguments(schema, { count: 'many' });
 * // { status: 'invalid', total: 1,
 * //   violations: [{ path: 'arguments.count', constraint: 'type', message: 'must be integer' }] }
 * ```
 *
 * @param schema - the tool's input schema; anything that is not a plain object is `unchecked`
 * @param args - the call's arguments (an object; anything else is judged as it is)
 * @param options.patterns - `'linear'` (RE2, the default) or `'native'` (`RegExp`)
 * @param options.repair - repair unambiguous values first (default true)
 * @param options.maxViolations - how many violations to list (default 50)
 * @returns `valid` with the arguments to dispatch, `invalid` with the violations, or
 * `unchecked` with the reason
 * @throws `ToolSearchError` `invalid_argument` when `patterns` is neither `'linear'`
 * nor `'native'` or `maxViolations` is not a positive integer; never for any schema or
 * arguments
 */
export function validateArguments(
  schema: unknown,
  args: unknown,
  options: ValidateArgumentsOptions = {},
): ArgumentCheck {
  const patterns = options.patterns ?? 'linear';
  if (patterns !== 'linear' && patterns !== 'native') {
    throw new ToolSearchError(
      'invalid_argument',
      `validateArguments: patterns must be 'linear' or 'native', got ${describeError(patterns)}.`,
    );
  }
  const maxViolations = options.maxViolations ?? 50;
  if (!Number.isInteger(maxViolations) || maxViolations < 1) {
    throw new ToolSearchError(
      'invalid_argument',
      `validateArguments: maxViolations must be a positive integer, got ${String(maxViolations)}.`,
    );
  }
  if (!isPlainObject(schema)) {
    return { status: 'unchecked', reason: 'the input schema is not a JSON Schema object' };
  }
  const compiled = compiledSchema(schema, patterns);
  if ('error' in compiled) return { status: 'unchecked', reason: compiled.error };
  const { validate } = compiled;
  try {
    if (validate(args)) {
      return { status: 'valid', arguments: args as Record<string, unknown>, repairs: [] };
    }
    const errors = validate.errors ?? [];
    const repaired =
      options.repair !== false && isPlainObject(args) ? repairArguments(args, errors) : undefined;
    if (!repaired) return violationsOf(errors, maxViolations);
    if (validate(repaired.arguments)) {
      return { status: 'valid', arguments: repaired.arguments, repairs: repaired.repairs };
    }
    return violationsOf(validate.errors ?? [], maxViolations);
  } catch (error) {
    // A getter in the arguments or a pattern engine failure: nothing to judge by.
    return { status: 'unchecked', reason: `checking failed (${describeError(error)})` };
  }
}
