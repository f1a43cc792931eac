import type { ErrorObject } from 'ajv';

/**
 * The assertions of the interpreting validator that look at one value and no
 * subschema (`type`, `enum`, the limits, `pattern`, `format`, `required`, ...), with
 * the errors ajv reports for them (same keyword, `params` and message), and the shape
 * check that stands in for ajv's meta-schema check.
 */

/** A test of a string against a pattern. */
export type PatternTest = (source: string) => { test(input: string): boolean };

/** A format check: the type of value it applies to and its test. */
export interface FormatTest {
  type: 'string' | 'number';
  test: (value: never) => boolean;
}

/** One error in the making: ajv's fields but the paths. */
export type Failure = Pick<ErrorObject, 'keyword' | 'params' | 'message'>;

/**
 * JSON Schema's type of a value, as ajv tells it: `integer` is a finite number with no
 * fraction.
 */
export function hasType(data: unknown, type: string): boolean {
  switch (type) {
    case 'string':
      return typeof data === 'string';
    case 'number':
      return typeof data === 'number' && Number.isFinite(data);
    case 'integer':
      return typeof data === 'number' && Number.isFinite(data) && data % 1 === 0;
    case 'boolean':
      return typeof data === 'boolean';
    case 'null':
      return data === null;
    case 'array':
      return Array.isArray(data);
    case 'object':
      return typeof data === 'object' && data !== null && !Array.isArray(data);
    default:
      return false;
  }
}

/** Deep equality as ajv's (`fast-deep-equal`): objects whatever their keys' order. */
export function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    // biome-ignore lint/suspicious/noSelfCompare: NaN equals NaN here, as in fast-deep-equal.
    return a !== a && b !== b;
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, index) => equal(item, b[index]));
  }
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every(
    (key) =>
      Object.hasOwn(b, key) &&
      equal((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}

function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

const LIMITS: Record<string, string> = {
  maximum: '<=',
  minimum: '>=',
  exclusiveMaximum: '<',
  exclusiveMinimum: '>',
};

/** The types a schema allows (`nullable: true` adds `null`), as ajv reads them. */
export function typesOf(schema: Record<string, unknown>): string[] {
  const declared = schema.type;
  if (declared === undefined) return [];
  const types = Array.isArray(declared) ? [...(declared as string[])] : [declared as string];
  if (schema.nullable === true && !types.includes('null')) types.push('null');
  return types;
}

/** The failure of `type`, or `undefined`. */
export function typeFailure(types: readonly string[], data: unknown): Failure | undefined {
  if (types.length === 0 || types.some((type) => hasType(data, type))) return undefined;
  const type = types.join(',');
  return { keyword: 'type', params: { type }, message: `must be ${type}` };
}

/** The failures of `const` and `enum`, which apply to any value. */
export function valueFailures(schema: Record<string, unknown>, data: unknown): Failure[] {
  const failures: Failure[] = [];
  if (schema.const !== undefined && !equal(data, schema.const)) {
    failures.push({
      keyword: 'const',
      params: { allowedValue: schema.const },
      message: 'must be equal to constant',
    });
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((value) => equal(data, value))) {
    failures.push({
      keyword: 'enum',
      params: { allowedValues: schema.enum },
      message: 'must be equal to one of the allowed values',
    });
  }
  return failures;
}

function formatFailure(
  schema: Record<string, unknown>,
  data: unknown,
  formats: ReadonlyMap<string, FormatTest>,
): Failure[] {
  const format = typeof schema.format === 'string' ? formats.get(schema.format) : undefined;
  if (!format || typeof data !== format.type || format.test(data as never)) return [];
  return [
    {
      keyword: 'format',
      params: { format: schema.format },
      message: `must match format "${String(schema.format)}"`,
    },
  ];
}

/** The failures of a number against the number keywords, in ajv's order. */
export function numberFailures(
  schema: Record<string, unknown>,
  data: number,
  formats: ReadonlyMap<string, FormatTest>,
): Failure[] {
  const failures: Failure[] = [];
  for (const [keyword, comparison] of Object.entries(LIMITS)) {
    const limit = schema[keyword];
    if (typeof limit !== 'number') continue;
    const ok =
      comparison === '<='
        ? data <= limit
        : comparison === '>='
          ? data >= limit
          : comparison === '<'
            ? data < limit
            : data > limit;
    if (!ok)
      failures.push({
        keyword,
        params: { comparison, limit },
        message: `must be ${comparison} ${limit}`,
      });
  }
  const divisor = schema.multipleOf;
  if (typeof divisor === 'number') {
    const quotient = data / divisor;
    // ajv's own test, kept for the same verdicts on large and fractional numbers.
    if (quotient !== Number.parseInt(String(quotient), 10)) {
      failures.push({
        keyword: 'multipleOf',
        params: { multipleOf: divisor },
        message: `must be multiple of ${divisor}`,
      });
    }
  }
  return [...failures, ...formatFailure(schema, data, formats)];
}

/** The failures of a string against the string keywords, in ajv's order. */
export function stringFailures(
  schema: Record<string, unknown>,
  data: string,
  patternTest: PatternTest,
  formats: ReadonlyMap<string, FormatTest>,
): Failure[] {
  const failures: Failure[] = [];
  const length =
    schema.maxLength !== undefined || schema.minLength !== undefined ? codePoints(data) : 0;
  if (typeof schema.maxLength === 'number' && length > schema.maxLength) {
    const limit = schema.maxLength;
    failures.push({
      keyword: 'maxLength',
      params: { limit },
      message: `must NOT have more than ${limit} characters`,
    });
  }
  if (typeof schema.minLength === 'number' && length < schema.minLength) {
    const limit = schema.minLength;
    failures.push({
      keyword: 'minLength',
      params: { limit },
      message: `must NOT have fewer than ${limit} characters`,
    });
  }
  if (typeof schema.pattern === 'string' && !patternTest(schema.pattern).test(data)) {
    const pattern = schema.pattern;
    failures.push({
      keyword: 'pattern',
      params: { pattern },
      message: `must match pattern "${pattern}"`,
    });
  }
  return [...failures, ...formatFailure(schema, data, formats)];
}

/** The failures of `maxItems` and `minItems`. */
export function arrayCountFailures(
  schema: Record<string, unknown>,
  data: readonly unknown[],
): Failure[] {
  const failures: Failure[] = [];
  if (typeof schema.maxItems === 'number' && data.length > schema.maxItems) {
    const limit = schema.maxItems;
    failures.push({
      keyword: 'maxItems',
      params: { limit },
      message: `must NOT have more than ${limit} items`,
    });
  }
  if (typeof schema.minItems === 'number' && data.length < schema.minItems) {
    const limit = schema.minItems;
    failures.push({
      keyword: 'minItems',
      params: { limit },
      message: `must NOT have fewer than ${limit} items`,
    });
  }
  return failures;
}

/** The failures of `maxProperties`, `minProperties` and `required`, in ajv's order. */
export function objectCountFailures(
  schema: Record<string, unknown>,
  data: Record<string, unknown>,
): Failure[] {
  const failures: Failure[] = [];
  const count = Object.keys(data).length;
  if (typeof schema.maxProperties === 'number' && count > schema.maxProperties) {
    const limit = schema.maxProperties;
    failures.push({
      keyword: 'maxProperties',
      params: { limit },
      message: `must NOT have more than ${limit} properties`,
    });
  }
  if (typeof schema.minProperties === 'number' && count < schema.minProperties) {
    const limit = schema.minProperties;
    failures.push({
      keyword: 'minProperties',
      params: { limit },
      message: `must NOT have fewer than ${limit} properties`,
    });
  }
  if (Array.isArray(schema.required)) {
    for (const missingProperty of schema.required as string[]) {
      // ajv's test (own or inherited, not undefined), kept for the same verdicts.
      if (data[missingProperty] === undefined) {
        failures.push({
          keyword: 'required',
          params: { missingProperty },
          message: `must have required property '${missingProperty}'`,
        });
      }
    }
  }
  return failures;
}

// The keywords of each of ajv's type groups: a schema with one type and a keyword of
// that type's group has its type error reported where that group runs.
const GROUPS: Record<string, readonly string[]> = {
  number: ['maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum', 'multipleOf', 'format'],
  string: ['maxLength', 'minLength', 'pattern', 'format'],
  array: [
    'maxItems',
    'minItems',
    'items',
    'prefixItems',
    'additionalItems',
    'contains',
    'minContains',
    'maxContains',
    'uniqueItems',
  ],
  object: [
    'maxProperties',
    'minProperties',
    'required',
    'propertyNames',
    'additionalProperties',
    'dependencies',
    'properties',
    'patternProperties',
    'dependentRequired',
    'dependentSchemas',
  ],
};

/**
 * Where ajv reports a `type` failure: `'first'`, before every other keyword, or the
 * type group (`number`, `string`, `array`, `object`) in whose turn it is reported.
 */
export function typeReportedAt(schema: Record<string, unknown>, types: readonly string[]): string {
  const only = types.length === 1 ? types[0] : undefined;
  const group = only === undefined ? undefined : GROUPS[only];
  return only !== undefined && group?.some((keyword) => schema[keyword] !== undefined)
    ? only
    : 'first';
}

/**
 * The failures of an object against draft-07's `dependencies` (the lists) or
 * `dependentRequired`, as ajv reports them.
 */
export function dependencyFailures(
  keyword: 'dependencies' | 'dependentRequired',
  map: Record<string, unknown>,
  data: Record<string, unknown>,
): Failure[] {
  const failures: Failure[] = [];
  for (const [property, deps] of Object.entries(map)) {
    if (!Array.isArray(deps) || data[property] === undefined) continue;
    for (const missingProperty of deps as string[]) {
      if (data[missingProperty] !== undefined) continue;
      const depsCount = deps.length;
      const list = deps.join(', ');
      failures.push({
        keyword,
        params: { property, missingProperty, depsCount, deps: list },
        message: `must have ${depsCount === 1 ? 'property' : 'properties'} ${list} when property ${property} is present`,
      });
    }
  }
  return failures;
}
