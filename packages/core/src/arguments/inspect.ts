import { describeError, ToolSearchError } from '../errors.js';
import { isRecord } from '../is-record.js';
import { compiledSchema, type PatternEngine } from './compile.js';
import { resolveEngine, type ValidatorEngine } from './engine.js';
import type { SkippedKeyword } from './skipped.js';

/** What {@link inspectInputSchema} finds. */
export type InputSchemaInspection =
  | {
      status: 'checked';
      /**
       * The keywords left unchecked: those no check runs (`cause: 'unsupported'`), and
       * those a budget overrun left out of some call so far (`cause: 'budget'`).
       */
      skipped: SkippedKeyword[];
    }
  | { status: 'unchecked'; reason: string };

/**
 * What checking a tool's arguments against this schema leaves out, before any call:
 * for `inspect` and start-up logs. The schema is compiled (and cached) as
 * {@link validateArguments} would.
 *
 * @param schema - the tool's input schema
 * @param options.patterns - the pattern engine (default `'linear'`)
 * @param options.validator - the validator engine (default `'auto'`)
 * @returns `checked` with the keywords left unchecked, or `unchecked` with the reason
 * @throws `ToolSearchError` `invalid_argument` when `patterns` is neither `'linear'`
 * nor `'native'`, or `validator` is not `'auto'`, `'compiled'` or `'interpreted'`; never for any schema
 */
export function inspectInputSchema(
  schema: unknown,
  options: { patterns?: PatternEngine; validator?: ValidatorEngine } = {},
): InputSchemaInspection {
  const patterns = options.patterns ?? 'linear';
  if (patterns !== 'linear' && patterns !== 'native') {
    throw new ToolSearchError(
      'invalid_argument',
      `inspectInputSchema: patterns must be 'linear' or 'native', got ${describeError(patterns)}.`,
    );
  }
  if (!isRecord(schema)) {
    return { status: 'unchecked', reason: 'the input schema is not a JSON Schema object' };
  }
  const engine = options.validator ?? 'auto';
  if (engine !== 'auto' && engine !== 'compiled' && engine !== 'interpreted') {
    throw new ToolSearchError(
      'invalid_argument',
      `inspectInputSchema: validator must be 'auto', 'compiled' or 'interpreted', got ${describeError(engine)}.`,
    );
  }
  const compiled = compiledSchema(schema, patterns, resolveEngine(engine));
  if ('error' in compiled) return { status: 'unchecked', reason: compiled.error };
  return { status: 'checked', skipped: [...compiled.prepared.skipped, ...compiled.observed] };
}
