// What a schema walk needs to know of a keyword's value: shared by the preparation of a
// schema (prepare.ts) and the interpreter's reference index (interpret-refs.ts).

/** Keywords whose values are data, not schemas: a walk never enters them. */
export const DATA_KEYWORDS: ReadonlySet<string> = new Set([
  'enum',
  'const',
  'default',
  'examples',
  'required',
  'type',
  'dependentRequired',
]);

/** Keywords whose value maps names to subschemas: the map itself is not a schema. */
export const SCHEMA_MAPS: ReadonlySet<string> = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
  'dependencies',
]);
