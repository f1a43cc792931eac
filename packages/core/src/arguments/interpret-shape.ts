import { type Draft, lookUp, resolveUri, type SchemaReferences } from './interpret-refs.js';

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

const SCHEMA_ARRAYS = ['allOf', 'anyOf', 'oneOf'];
const SUBSCHEMAS = [
  'not',
  'if',
  'then',
  'else',
  'additionalProperties',
  'unevaluatedProperties',
  'propertyNames',
  'additionalItems',
  'unevaluatedItems',
  'contains',
];
const COUNTS = [
  'maxLength',
  'minLength',
  'maxItems',
  'minItems',
  'maxProperties',
  'minProperties',
  'minContains',
  'maxContains',
];
const NUMBERS = ['maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum'];

function isSchema(value: unknown): boolean {
  return (
    typeof value === 'boolean' ||
    (typeof value === 'object' && value !== null && !Array.isArray(value))
  );
}

/**
 * Why a schema object's own keywords are malformed (what ajv's meta-schema check
 * refuses), or `undefined` when they are well formed. Subschemas are checked as they
 * are walked.
 *
 * @param schema - one schema object
 * @param draft - the draft it is read as
 * @returns the reason, or `undefined`
 * @throws nothing
 */
export function malformed(schema: Record<string, unknown>, draft: Draft): string | undefined {
  if ('id' in schema) return 'NOT SUPPORTED: keyword "id", use "$id" for schema ID';
  const { type } = schema;
  if (type !== undefined) {
    const types = Array.isArray(type) ? type : [type];
    if (types.some((name) => typeof name !== 'string' || !TYPES.has(name)))
      return 'type is not a JSON type';
    if (new Set(types).size !== types.length) return 'type lists a type twice';
  }
  if (schema.enum !== undefined && !Array.isArray(schema.enum)) return 'enum is not an array';
  const required = schema.required;
  if (
    required !== undefined &&
    (!Array.isArray(required) || required.some((name) => typeof name !== 'string'))
  ) {
    return 'required is not an array of strings';
  }
  for (const keyword of SCHEMA_ARRAYS) {
    const value = schema[keyword];
    if (
      value !== undefined &&
      (!Array.isArray(value) || value.length === 0 || !value.every(isSchema))
    ) {
      return `${keyword} is not a non-empty array of schemas`;
    }
  }
  for (const keyword of SUBSCHEMAS) {
    if (schema[keyword] !== undefined && !isSchema(schema[keyword]))
      return `${keyword} is not a schema`;
  }
  const items = schema.items;
  if (items !== undefined && !isSchema(items)) {
    if (draft === '2020-12' || !Array.isArray(items) || !items.every(isSchema))
      return 'items is not a schema';
  }
  if (
    schema.prefixItems !== undefined &&
    !(Array.isArray(schema.prefixItems) && schema.prefixItems.every(isSchema))
  ) {
    return 'prefixItems is not an array of schemas';
  }
  for (const keyword of COUNTS) {
    const value = schema[keyword];
    if (value !== undefined && !(Number.isInteger(value) && (value as number) >= 0))
      return `${keyword} is not a non-negative integer`;
  }
  for (const keyword of NUMBERS) {
    if (schema[keyword] !== undefined && typeof schema[keyword] !== 'number')
      return `${keyword} is not a number`;
  }
  if (
    schema.multipleOf !== undefined &&
    !(typeof schema.multipleOf === 'number' && schema.multipleOf > 0)
  ) {
    return 'multipleOf is not a positive number';
  }
  for (const keyword of [
    'pattern',
    'format',
    '$ref',
    '$id',
    '$anchor',
    '$dynamicRef',
    '$dynamicAnchor',
  ]) {
    if (schema[keyword] !== undefined && typeof schema[keyword] !== 'string')
      return `${keyword} is not a string`;
  }
  if (schema.uniqueItems !== undefined && typeof schema.uniqueItems !== 'boolean')
    return 'uniqueItems is not a boolean';
  for (const keyword of [
    'properties',
    'patternProperties',
    '$defs',
    'definitions',
    'dependentSchemas',
  ]) {
    const value = schema[keyword];
    if (value === undefined) continue;
    if (
      typeof value !== 'object' ||
      value === null ||
      Array.isArray(value) ||
      !Object.values(value).every(isSchema)
    ) {
      return `${keyword} is not a map of schemas`;
    }
  }
  return undefined;
}

/**
 * Throws what ajv's meta-schema check would refuse in a schema.
 *
 * @throws `Error` for a malformed schema
 */
export function checkShape(schema: unknown, draft: Draft, depth = 0): void {
  if (depth > 256) throw new RangeError('the schema is nested too deeply');
  if (typeof schema !== 'object' || schema === null) return;
  if (Array.isArray(schema)) {
    for (const item of schema) checkShape(item, draft, depth + 1);
    return;
  }
  const source = schema as Record<string, unknown>;
  const problem = malformed(source, draft);
  if (problem)
    throw new Error(problem.startsWith('NOT') ? problem : `schema is invalid: ${problem}`);
  for (const [key, value] of Object.entries(source)) {
    if (key === 'enum' || key === 'const' || key === 'default' || key === 'examples') continue;
    if (
      [
        'properties',
        'patternProperties',
        '$defs',
        'definitions',
        'dependentSchemas',
        'dependencies',
      ].includes(key) &&
      typeof value === 'object' &&
      value !== null
    ) {
      for (const entry of Object.values(value)) checkShape(entry, draft, depth + 1);
    } else if (typeof value === 'object') checkShape(value, draft, depth + 1);
  }
}

/**
 * Throws for a reference the schema does not hold (ajv refuses to compile those).
 *
 * @throws `Error` for an unresolvable reference
 */
export function checkReferences(
  schema: unknown,
  references: SchemaReferences,
  base: string,
  depth = 0,
): void {
  if (depth > 256 || typeof schema !== 'object' || schema === null) return;
  const here = Array.isArray(schema) ? base : (references.baseOf.get(schema) ?? base);
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'enum' || key === 'const' || key === 'default' || key === 'examples') continue;
    if ((key === '$ref' || key === '$dynamicRef') && typeof value === 'string') {
      const uri = resolveUri(value, here);
      if (uri === undefined || !lookUp(references, uri)) {
        throw new Error(`can't resolve reference ${value} from id ${here}`);
      }
    } else checkReferences(value, references, here, depth + 1);
  }
}
