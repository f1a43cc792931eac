import type { Ajv } from 'ajv';
import { spendFormatChars } from './budget.js';
import type { FormatTest } from './interpret-keywords.js';
import { duplicateItems } from './unique-items.js';

/** What {@link boundFormats} needs of an ajv instance. */
export type FormatHolder = Pick<Ajv, 'formats' | 'addFormat'>;

/**
 * ajv's `uniqueItems` in one hashing pass (ajv's own compares every pair of items):
 * a custom keyword's `validate`, which reports its error on itself as ajv expects.
 *
 * @param schema - the keyword's value
 * @param data - the value checked
 * @returns whether the items are unique (or the keyword does not apply)
 * @throws `RangeError` for items nested more than 512 levels deep
 */
export function uniqueItems(this: unknown, schema: unknown, data: unknown): boolean {
  const validate = uniqueItems as unknown as { errors?: unknown[] | null };
  validate.errors = null;
  if (schema !== true || !Array.isArray(data)) return true;
  const duplicate = duplicateItems(data);
  if (!duplicate) return true;
  const [i, j] = duplicate;
  validate.errors = [
    {
      keyword: 'uniqueItems',
      message: `must NOT have duplicate items (items ## ${j} and ${i} are identical)`,
      params: { i, j },
    },
  ];
  return false;
}

type StringTest = (input: string) => boolean;

function stringTest(format: unknown): StringTest | undefined {
  if (format instanceof RegExp) return (input) => format.test(input);
  if (typeof format === 'function') return format as StringTest;
  return undefined;
}

/**
 * Every string format within the check's budget: some of ajv-formats' expressions
 * (`url`) take time quadratic in the string's length, so a string too long for the
 * budget passes its format unchecked and the check reports it.
 *
 * @param ajv - an ajv instance with its formats added
 * @throws nothing
 */
export function boundFormats(ajv: FormatHolder): void {
  for (const [name, format] of Object.entries(ajv.formats)) {
    const definition =
      typeof format === 'object' && format !== null && !(format instanceof RegExp)
        ? (format as { type?: string; async?: boolean; validate?: unknown; compare?: unknown })
        : undefined;
    if (definition && (definition.type === 'number' || definition.async)) continue;
    const test = stringTest(definition ? definition.validate : format);
    if (!test) continue;
    ajv.addFormat(name, {
      type: 'string',
      validate: (input: string) => (spendFormatChars(name, input.length) ? test(input) : true),
      ...(typeof definition?.compare === 'function'
        ? { compare: definition.compare as (a: string, b: string) => number | undefined }
        : {}),
    });
  }
}

/**
 * The interpreter's formats: each of ajv-formats' formats with the same bounds as
 * {@link boundFormats} gives ajv's.
 *
 * @param formats - ajv-formats' `fullFormats`
 * @returns the tests by format name
 * @throws nothing
 */
export function boundedFormatTests(formats: Record<string, unknown>): Map<string, FormatTest> {
  const tests = new Map<string, FormatTest>();
  for (const [name, format] of Object.entries(formats)) {
    const definition =
      typeof format === 'object' && format !== null && !(format instanceof RegExp)
        ? (format as { type?: string; async?: boolean; validate?: unknown })
        : undefined;
    if (definition?.async) continue;
    const test = stringTest(definition ? definition.validate : format);
    if (!test) continue;
    if (definition?.type === 'number') {
      tests.set(name, { type: 'number', test: test as unknown as (value: never) => boolean });
      continue;
    }
    tests.set(name, {
      type: 'string',
      test: ((input: string) => (spendFormatChars(name, input.length) ? test(input) : true)) as (
        value: never,
      ) => boolean,
    });
  }
  return tests;
}
