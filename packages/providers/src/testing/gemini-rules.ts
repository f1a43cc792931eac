import { isRecord } from '@tool-search/core/internal';

/** Gemini's function name rule. */
export const GEMINI_NAME = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,127}$/;

const TYPES = new Set(['STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT', 'NULL']);
const COUNTS = new Set([
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'minProperties',
  'maxProperties',
]);
const KEYS = new Set([
  'type',
  'description',
  'title',
  'nullable',
  'enum',
  'format',
  'properties',
  'required',
  'propertyOrdering',
  'items',
  'anyOf',
  'minimum',
  'maximum',
  'pattern',
  'default',
  'example',
  ...COUNTS,
]);

/**
 * What breaks Gemini's schema subset (`Schema` of `generateContent`) in one schema: an
 * unknown keyword, a type outside the enum, a count that is not an int64 string, a
 * `required` name without its property, an array without `items`, an enum of non-strings.
 *
 * @param schema - a function's `parameters`
 * @param path - where the schema sits, for the messages
 * @returns the problems (empty when none)
 */
export function geminiSchemaProblems(schema: unknown, path = 'parameters'): string[] {
  if (!isRecord(schema)) return [`${path}: must be an object`];
  const problems: string[] = [];
  for (const key of Object.keys(schema)) {
    if (!KEYS.has(key)) problems.push(`${path}: unknown field '${key}'`);
  }
  const type = schema['type'];
  if (type !== undefined && !(typeof type === 'string' && TYPES.has(type))) {
    problems.push(`${path}.type: '${String(type)}' is not a Type`);
  }
  for (const key of COUNTS) {
    const value = schema[key];
    if (value !== undefined && !(typeof value === 'string' && /^\d+$/.test(value))) {
      problems.push(`${path}.${key}: must be an int64 string`);
    }
  }
  if (schema['enum'] !== undefined) {
    const values = schema['enum'];
    if (!Array.isArray(values) || values.some((value) => typeof value !== 'string')) {
      problems.push(`${path}.enum: must be strings`);
    }
  }
  const properties = schema['properties'];
  if (properties !== undefined) {
    if (!isRecord(properties)) problems.push(`${path}.properties: must be an object`);
    else {
      for (const [name, value] of Object.entries(properties)) {
        problems.push(...geminiSchemaProblems(value, `${path}.${name}`));
      }
    }
  }
  if (schema['required'] !== undefined) {
    const names = isRecord(properties) ? Object.keys(properties) : [];
    const required = schema['required'];
    if (!Array.isArray(required)) problems.push(`${path}.required: must be an array`);
    else {
      for (const name of required) {
        if (!names.includes(String(name)))
          problems.push(`${path}.required: '${String(name)}' has no property`);
      }
    }
  }
  if (type === 'ARRAY' && schema['items'] === undefined)
    problems.push(`${path}: ARRAY needs items`);
  if (schema['items'] !== undefined)
    problems.push(...geminiSchemaProblems(schema['items'], `${path}[]`));
  if (schema['anyOf'] !== undefined) {
    if (!Array.isArray(schema['anyOf'])) problems.push(`${path}.anyOf: must be an array`);
    else {
      schema['anyOf'].forEach((branch, index) => {
        problems.push(...geminiSchemaProblems(branch, `${path}.anyOf[${index}]`));
      });
    }
  }
  return problems;
}

/**
 * Reads the function declarations of a `generateContent` request as the API does: names
 * by Gemini's rule and unique, parameters in the schema subset.
 *
 * @param raw - the request's `tools`
 * @returns the declared names and the problems
 */
export function readDeclarations(raw: unknown): { names: Set<string>; problems: string[] } {
  const names = new Set<string>();
  const problems: string[] = [];
  if (raw === undefined) return { names, problems };
  if (!Array.isArray(raw)) return { names, problems: ['tools: must be an array'] };
  for (const tool of raw) {
    if (!isRecord(tool)) {
      problems.push('tools: every tool must be an object');
      continue;
    }
    const declarations = tool['functionDeclarations'];
    if (!Array.isArray(declarations)) continue;
    for (const declaration of declarations) {
      const name = isRecord(declaration) ? declaration['name'] : undefined;
      if (typeof name !== 'string' || !GEMINI_NAME.test(name)) {
        problems.push(`functionDeclarations: name '${String(name)}' breaks Gemini's rule`);
        continue;
      }
      if (names.has(name)) problems.push(`functionDeclarations: '${name}' is declared twice`);
      names.add(name);
      const parameters = (declaration as Record<string, unknown>)['parameters'];
      if (parameters !== undefined) {
        problems.push(...geminiSchemaProblems(parameters, `${name}.parameters`));
        if ((parameters as Record<string, unknown>)['type'] !== 'OBJECT') {
          problems.push(`${name}.parameters: type must be OBJECT`);
        }
      }
    }
  }
  return { names, problems };
}
