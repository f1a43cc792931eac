import type { ErrorObject } from 'ajv';
import { describeError, ToolSearchError } from '../errors.js';
import { isRecord } from '../is-record.js';
import {
  BudgetExceeded,
  DEFAULT_MAX_ARGUMENT_BYTES,
  MAX_CHECK_ATTEMPTS,
  MAX_FORMAT_CHARS,
  MAX_FORMAT_STRING_CHARS,
  MAX_PATTERN_STEPS,
  type RunningCheck,
  withBudget,
} from './budget.js';
import { type CompiledSchema, compiledSchema, type PatternEngine } from './compile.js';
import { culprit, keywordOf } from './culprit.js';
import { resolveEngine, type ValidatorEngine } from './engine.js';
import type { SchemaValidator } from './interpret.js';
import { type ArgumentRepair, repairArguments } from './repair.js';
import type { SkippedKeyword } from './skipped.js';
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
   * Which validator checks: `'compiled'` (ajv, which compiles each schema to
   * JavaScript), `'interpreted'` (walks the schema: for runtimes that refuse code
   * generation from strings, such as Cloudflare Workers and Vercel's edge functions),
   * or `'auto'`: ajv where `new Function` works, else the interpreter. Both give the
   * same verdicts, repairs, violations and bounds.
   * @defaultValue `'auto'`
   */
  validator?: ValidatorEngine;
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
  /**
   * The largest arguments checked, in bytes of compact JSON (UTF-8). Larger arguments
   * are `invalid` before the schema is looked at, with one violation
   * `{ path: 'arguments', constraint: 'maxArgumentBytes' }`: the size limit comes first,
   * since the time of every check grows with the arguments.
   * @defaultValue {@link DEFAULT_MAX_ARGUMENT_BYTES} (1 MiB)
   */
  maxArgumentBytes?: number;
  /** The tool's name, copied into each {@link SkippedKeyword} so that a report names it. */
  tool?: string;
  /**
   * Told of each keyword left unchecked, once per callback, tool, keyword and pointer
   * (a log line or a metric, not a decision: the result's `skipped` lists them on every
   * call). A callback that throws is ignored.
   */
  onSkippedKeyword?: (skipped: SkippedKeyword) => void;
}

/** Arguments that fit the schema, as sent or repaired. */
export interface ArgumentsValid {
  status: 'valid';
  /** What to dispatch: the arguments as sent when `repairs` is empty, else a repaired copy. */
  arguments: Record<string, unknown>;
  /** What was repaired; empty when the arguments fitted as sent. */
  repairs: ArgumentRepair[];
  /** The keywords this check left unchecked (absent when none was); the rest fitted. */
  skipped?: SkippedKeyword[];
}

/** Arguments that break the schema even after the repairs. */
export interface ArgumentsInvalid {
  status: 'invalid';
  /** The violations (of the repaired arguments), at most `maxViolations`, duplicates dropped. */
  violations: ArgumentViolation[];
  /** How many distinct violations there were in all. */
  total: number;
  /** The keywords this check left unchecked (absent when none was). */
  skipped?: SkippedKeyword[];
}

/**
 * A schema that cannot be checked: not an object, malformed, with an external `$ref`,
 * or whose check overran its budget even with the keywords that spent it left out
 * (a pattern the linear engine cannot run leaves only that keyword unchecked, see
 * {@link SkippedKeyword}). The caller decides:
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
 * The check is bounded, so that a hostile schema cannot hold the event loop: arguments
 * over `maxArgumentBytes` (1 MiB by default) are `invalid` before the schema is looked
 * at; every subschema evaluation counts against a budget of 100,000 plus 4 per
 * character of the arguments' JSON (one subschema: 1,000 plus 4 per character), a
 * `pattern` costs its program's length times the string's length (20,000,000 a check),
 * a `format` reads strings of at most 8,192 characters (65,536 a check), and
 * `uniqueItems` is one hashing pass. A keyword whose check would overrun is left out
 * of this call's check, the rest is checked again (3 runs at most), and the result
 * lists it in `skipped` (`cause: 'budget'`). A `pattern` the linear engine cannot run,
 * or a draft-04 `exclusiveMaximum: true` without a `maximum`, is left out of every check
 * (`cause: 'unsupported'`), not the whole schema; draft-04's boolean `exclusiveMaximum`
 * and `exclusiveMinimum` are read as the modern numbers.
 *
 * Unknown keywords are ignored, formats (`email`, `uri`, `date-time`, ...) are
 * checked, and OpenAPI's `nullable: true` lets `null` through (an `enum` too). Each
 * schema is compiled once: by identity, then by content (the last 1,000 distinct
 * schemas per pattern engine), so a rebuilt tool list costs nothing while its schemas
 * stay the same. ajv and re2js load on the first call, not on import. Where `new
 * Function` is refused, the schema is interpreted instead (`validator: 'auto'`), with
 * the same verdicts, repairs and bounds.
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
 * @param options.validator - `'auto'` (the default), `'compiled'` (ajv) or `'interpreted'`
 * @param options.repair - repair unambiguous values first (default true)
 * @param options.maxViolations - how many violations to list (default 50)
 * @param options.maxArgumentBytes - the size limit, checked first (default 1 MiB)
 * @param options.tool - the tool's name, for `skipped` and reports
 * @param options.onSkippedKeyword - told once of each keyword left unchecked
 * @returns `valid` with the arguments to dispatch, `invalid` with the violations, or
 * `unchecked` with the reason; `valid` and `invalid` list in `skipped` the keywords
 * left unchecked
 * @throws `ToolSearchError` `invalid_argument` when `patterns` is neither `'linear'`
 * nor `'native'`, `validator` is not `'auto'`, `'compiled'` or `'interpreted'`, `maxViolations` is not a positive integer or `maxArgumentBytes` is not
 * a positive number; never for any schema or arguments
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
  const engine = options.validator ?? 'auto';
  if (engine !== 'auto' && engine !== 'compiled' && engine !== 'interpreted') {
    throw new ToolSearchError(
      'invalid_argument',
      `validateArguments: validator must be 'auto', 'compiled' or 'interpreted', got ${describeError(engine)}.`,
    );
  }
  const maxViolations = options.maxViolations ?? 50;
  if (!Number.isInteger(maxViolations) || maxViolations < 1) {
    throw new ToolSearchError(
      'invalid_argument',
      `validateArguments: maxViolations must be a positive integer, got ${String(maxViolations)}.`,
    );
  }
  const maxBytes = options.maxArgumentBytes ?? DEFAULT_MAX_ARGUMENT_BYTES;
  if (typeof maxBytes !== 'number' || !(maxBytes > 0)) {
    throw new ToolSearchError(
      'invalid_argument',
      `validateArguments: maxArgumentBytes must be a positive number, got ${String(maxBytes)}.`,
    );
  }
  if (!isRecord(schema)) {
    return { status: 'unchecked', reason: 'the input schema is not a JSON Schema object' };
  }
  const size = measure(args, maxBytes);
  if ('error' in size) return { status: 'unchecked', reason: size.error };
  if ('bytes' in size) {
    return {
      status: 'invalid',
      violations: [
        {
          path: 'arguments',
          constraint: 'maxArgumentBytes',
          message: `are ${size.bytes} bytes of JSON; at most ${maxBytes} are allowed. Send less, e.g. in several calls`,
        },
      ],
      total: 1,
    };
  }
  const compiled = compiledSchema(schema, patterns, resolveEngine(engine));
  if ('error' in compiled) return { status: 'unchecked', reason: compiled.error };
  return boundedCheck(compiled, args, size.chars, options, maxViolations);
}

const encoder = new TextEncoder();

/** The arguments' JSON length, or their size in bytes when over the limit. */
function measure(
  args: unknown,
  maxBytes: number,
): { chars: number } | { bytes: number } | { error: string } {
  let json: string;
  try {
    json = JSON.stringify(args) ?? '';
  } catch (error) {
    return { error: `the arguments are not JSON (${describeError(error)})` };
  }
  // A UTF-16 unit takes at most 3 UTF-8 bytes: most calls are decided without encoding.
  if (json.length * 3 <= maxBytes) return { chars: json.length };
  const bytes = encoder.encode(json).byteLength;
  return bytes <= maxBytes ? { chars: json.length } : { bytes };
}

function judge(
  validate: SchemaValidator,
  args: unknown,
  options: ValidateArgumentsOptions,
  maxViolations: number,
): ArgumentsValid | ArgumentsInvalid {
  if (validate(args)) {
    return { status: 'valid', arguments: args as Record<string, unknown>, repairs: [] };
  }
  const errors = validate.errors ?? [];
  const repaired =
    options.repair !== false && isRecord(args) ? repairArguments(args, errors) : undefined;
  if (!repaired) return violationsOf(errors, maxViolations);
  if (validate(repaired.arguments)) {
    return { status: 'valid', arguments: repaired.arguments, repairs: repaired.repairs };
  }
  return violationsOf(validate.errors ?? [], maxViolations);
}

function report(
  compiled: CompiledSchema,
  skipped: readonly SkippedKeyword[],
  options: ValidateArgumentsOptions,
): void {
  for (const entry of skipped) {
    if (
      entry.cause === 'budget' &&
      !compiled.observed.some((seen) => seen.pointer === entry.pointer)
    ) {
      const { tool: _tool, ...anyTool } = entry;
      compiled.observed.push(anyTool);
    }
  }
  const callback = options.onSkippedKeyword;
  if (!callback) return;
  let done = compiled.reported.get(callback);
  if (!done) {
    done = new Set();
    compiled.reported.set(callback, done);
  }
  for (const entry of skipped) {
    const key = `${entry.tool ?? ''}\u0000${entry.keyword}\u0000${entry.pointer}`;
    if (done.has(key)) continue;
    done.add(key);
    try {
      callback(entry);
    } catch {
      // A report is not a decision: a failing logger changes nothing.
    }
  }
}

function boundedCheck(
  compiled: CompiledSchema,
  args: unknown,
  chars: number,
  options: ValidateArgumentsOptions,
  maxViolations: number,
): ArgumentCheck {
  const named = (entry: SkippedKeyword): SkippedKeyword =>
    options.tool === undefined ? entry : { tool: options.tool, ...entry };
  const skipped = compiled.prepared.skipped.map(named);
  const dropped: string[] = [];
  let current = compiled;
  for (let attempt = 1; ; attempt++) {
    const outcome = withBudget<
      | { result: ArgumentsValid | ArgumentsInvalid; check: RunningCheck }
      | { error: unknown; check: RunningCheck }
    >(chars, compiled.prepared.locations.length, (check) => {
      try {
        return { result: judge(current.validate, args, options, maxViolations), check };
      } catch (error) {
        return { error, check };
      }
    });
    if ('result' in outcome) {
      for (const source of outcome.check.skippedPatterns) {
        for (const pointer of compiled.prepared.patterns.get(source) ?? []) {
          skipped.push(
            named({
              keyword: 'pattern',
              pointer,
              cause: 'budget',
              reason: `matching it on strings this long would exceed the check's budget of ${MAX_PATTERN_STEPS} pattern steps (program length times string length)`,
            }),
          );
        }
      }
      for (const format of outcome.check.skippedFormats) {
        for (const pointer of compiled.prepared.formats.get(format) ?? []) {
          skipped.push(
            named({
              keyword: 'format',
              pointer,
              cause: 'budget',
              reason: `its '${format}' check reads strings of at most ${MAX_FORMAT_STRING_CHARS} characters, ${MAX_FORMAT_CHARS} in all a check (some formats take time quadratic in the length)`,
            }),
          );
        }
      }
      report(compiled, skipped, options);
      return skipped.length > 0 ? { ...outcome.result, skipped } : outcome.result;
    }
    if (!(outcome.error instanceof BudgetExceeded)) {
      // A getter in the arguments or a pattern engine failure: nothing to judge by.
      return { status: 'unchecked', reason: `checking failed (${describeError(outcome.error)})` };
    }
    const { maxEvaluations, maxPerSubschema } = outcome.check;
    const pointer = culprit(current, outcome.check.counts);
    if (pointer === undefined || dropped.includes(pointer) || attempt >= MAX_CHECK_ATTEMPTS) {
      report(compiled, skipped, options);
      return {
        status: 'unchecked',
        reason: `checking these arguments exceeded the check's budget (${maxEvaluations} subschema evaluations, ${maxPerSubschema} of one subschema) even with ${dropped.length === 0 ? 'nothing' : dropped.join(', ')} left out`,
      };
    }
    dropped.push(pointer);
    skipped.push(
      named({
        keyword: keywordOf(pointer),
        pointer,
        cause: 'budget',
        reason: `checking it on these arguments exceeded the check's budget (${maxEvaluations} subschema evaluations, ${maxPerSubschema} of one subschema): its subschemas nest so that the work multiplies with the depth of the arguments`,
      }),
    );
    const next = compiled.recompile(dropped);
    if ('error' in next) {
      return {
        status: 'unchecked',
        reason: `the schema without ${pointer} cannot be compiled (${next.error})`,
      };
    }
    current = next;
  }
}
