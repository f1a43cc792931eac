import { isRecord } from '@tool-search/core/internal';

/** A type of Gemini's schema subset (`Type` of `@google/genai`, by value). */
export type GeminiType = 'STRING' | 'NUMBER' | 'INTEGER' | 'BOOLEAN' | 'ARRAY' | 'OBJECT' | 'NULL';

/**
 * A schema in the subset of OpenAPI 3.0 that Gemini's `generateContent` takes for a
 * function's `parameters` (`Schema` of `@google/genai`, with its `Type` enum by value):
 * upper-case types, `nullable` instead of a `null` type, `anyOf` instead of `oneOf`, and
 * the integer limits as strings (int64 in JSON).
 */
export interface GeminiSchema {
  type?: GeminiType;
  description?: string;
  title?: string;
  nullable?: boolean;
  enum?: string[];
  format?: string;
  properties?: Record<string, GeminiSchema>;
  required?: string[];
  propertyOrdering?: string[];
  items?: GeminiSchema;
  anyOf?: GeminiSchema[];
  minimum?: number;
  maximum?: number;
  minItems?: string;
  maxItems?: string;
  minLength?: string;
  maxLength?: string;
  minProperties?: string;
  maxProperties?: string;
  pattern?: string;
  default?: unknown;
  example?: unknown;
}

const TYPES: Record<string, GeminiType> = {
  string: 'STRING',
  number: 'NUMBER',
  integer: 'INTEGER',
  boolean: 'BOOLEAN',
  array: 'ARRAY',
  object: 'OBJECT',
  null: 'NULL',
};

// The formats Gemini documents per type; any other is dropped rather than refused.
const FORMATS: Partial<Record<GeminiType, ReadonlySet<string>>> = {
  STRING: new Set(['date-time', 'enum']),
  NUMBER: new Set(['float', 'double']),
  INTEGER: new Set(['int32', 'int64']),
};

const COUNTS = [
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'minProperties',
  'maxProperties',
] as const;

/** How deep `$ref`s are followed: a recursive schema is cut there, as an open object. */
const MAX_DEPTH = 8;

interface Context {
  root: Record<string, unknown>;
  depth: number;
}

function resolveRef(ref: string, context: Context): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = context.root;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isRecord(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

function enumOf(values: unknown[]): string[] | undefined {
  // Gemini's enum holds strings only; an enum of other values is described instead.
  return values.every((value) => typeof value === 'string') ? (values as string[]) : undefined;
}

function describe(schema: GeminiSchema, extra: string): void {
  schema.description = schema.description === undefined ? extra : `${schema.description} ${extra}`;
}

function convert(input: unknown, context: Context): GeminiSchema {
  if (!isRecord(input) || context.depth > MAX_DEPTH) return {};
  let source: Record<string, unknown> = input;
  if (typeof input['$ref'] === 'string') {
    const target = resolveRef(input['$ref'], context);
    if (!isRecord(target)) return { type: 'OBJECT', description: 'An object.' };
    source = {
      ...target,
      ...Object.fromEntries(Object.entries(input).filter(([k]) => k !== '$ref')),
    };
  }
  const inner: Context = { ...context, depth: context.depth + 1 };
  const out: GeminiSchema = {};
  if (typeof source['description'] === 'string') out.description = source['description'];
  if (typeof source['title'] === 'string') out.title = source['title'];

  const rawTypes = Array.isArray(source['type']) ? source['type'] : [source['type']];
  const types = rawTypes.flatMap((type) =>
    typeof type === 'string' && TYPES[type] !== undefined ? [TYPES[type]] : [],
  );
  const nonNull = types.filter((type) => type !== 'NULL');
  if (types.includes('NULL') || source['nullable'] === true) out.nullable = true;
  if (nonNull.length === 1) out.type = nonNull[0];
  else if (nonNull.length > 1) {
    out.anyOf = nonNull.map((type) => convert({ ...source, type: type.toLowerCase() }, inner));
    return out;
  } else if (types.length === 1) out.type = 'NULL';

  const branches = source['anyOf'] ?? source['oneOf'];
  if (Array.isArray(branches)) {
    const kept = branches.filter((branch) => !(isRecord(branch) && branch['type'] === 'null'));
    if (kept.length < branches.length) out.nullable = true;
    if (kept.length === 1) return { ...convert(kept[0], inner), ...out };
    out.anyOf = kept.map((branch) => convert(branch, inner));
  }
  if (Array.isArray(source['allOf'])) {
    // Gemini has no allOf: the branches' properties are merged into one object.
    const merged: GeminiSchema = {};
    const properties: Record<string, GeminiSchema> = {};
    const required: string[] = [];
    for (const branch of source['allOf']) {
      const part = convert(branch, inner);
      Object.assign(merged, part);
      Object.assign(properties, part.properties);
      required.push(...(part.required ?? []));
    }
    if (Object.keys(properties).length > 0) merged.properties = properties;
    if (required.length > 0) merged.required = [...new Set(required)];
    Object.assign(out, { ...merged, ...out });
  }

  if (source['const'] !== undefined) {
    if (typeof source['const'] === 'string') {
      out.enum = [source['const']];
      out.type ??= 'STRING';
    } else describe(out, `Always ${JSON.stringify(source['const'])}.`);
  }
  if (Array.isArray(source['enum'])) {
    const values = enumOf(source['enum']);
    if (values !== undefined) {
      out.enum = values;
      out.type ??= 'STRING';
    } else describe(out, `One of ${JSON.stringify(source['enum'])}.`);
  }
  if (typeof source['format'] === 'string' && out.type !== undefined) {
    if (FORMATS[out.type]?.has(source['format'])) out.format = source['format'];
  }
  if (isRecord(source['properties'])) {
    const properties: Record<string, GeminiSchema> = {};
    for (const [name, value] of Object.entries(source['properties'])) {
      properties[name] = convert(value, inner);
    }
    out.properties = properties;
    out.type ??= 'OBJECT';
    const names = Object.keys(properties);
    if (Array.isArray(source['required'])) {
      const required = source['required'].filter(
        (name): name is string => typeof name === 'string' && names.includes(name),
      );
      if (required.length > 0) out.required = [...new Set(required)];
    }
  }
  if (source['items'] !== undefined) {
    out.items = convert(
      Array.isArray(source['items']) ? source['items'][0] : source['items'],
      inner,
    );
    out.type ??= 'ARRAY';
  }
  if (out.type === 'ARRAY' && out.items === undefined) out.items = { type: 'STRING' };
  for (const key of ['minimum', 'maximum'] as const) {
    if (typeof source[key] === 'number') out[key] = source[key];
  }
  for (const key of COUNTS) {
    const value = source[key];
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0)
      out[key] = String(value);
  }
  if (typeof source['pattern'] === 'string') out.pattern = source['pattern'];
  if (source['default'] !== undefined) out.default = source['default'];
  if (Array.isArray(source['examples']) && source['examples'].length > 0) {
    out.example = source['examples'][0];
  }
  return out;
}

/**
 * Converts a JSON Schema (a tool's `inputSchema`) into the schema subset Gemini's
 * `generateContent` takes (`Schema` of `@google/genai`): types upper-cased; a `null` in a
 * type list or an `anyOf` becomes `nullable`; `oneOf` becomes `anyOf`; `allOf` is merged;
 * local `$ref`s are inlined (a recursive one is cut after 8 levels, as an open object);
 * `const` and an enum of strings become `enum`, other enums are described; the count
 * limits become strings; `additionalProperties`, `$defs` and other keywords Gemini
 * refuses are dropped; `required` keeps only the properties that exist. Nothing is
 * thrown: what cannot be said in the subset is left out or described.
 *
 * @param schema - a JSON Schema
 * @returns the Gemini schema
 * @throws nothing
 */
export function toGeminiSchema(schema: unknown): GeminiSchema {
  return convert(schema, { root: isRecord(schema) ? schema : {}, depth: 0 });
}
