// A TypeScript declaration of one tool, from its JSON Schemas: what tools.describe(name)
// answers inside a program, so a model writes calls that fit.
import type { JsonSchemaObject, ToolDefinition } from '@tool-search/core';

/** A tool that may carry the JSON Schema of its result (MCP's `outputSchema`). */
export type ToolWithOutput = ToolDefinition & { outputSchema?: JsonSchemaObject };

// Deep or wide schemas are cut: a declaration is for reading, not for checking.
const MAX_DEPTH = 6;
const MAX_PROPERTIES = 60;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function comment(text: unknown, indent: string): string {
  if (typeof text !== 'string' || text.trim() === '') return '';
  const safe = text.replaceAll('*/', '*\\/').trim().split('\n').join(`\n${indent} * `);
  return `${indent}/** ${safe} */\n`;
}

function literal(value: unknown): string {
  return JSON.stringify(value) ?? 'unknown';
}

function union(schemas: unknown, depth: number, indent: string): string {
  if (!Array.isArray(schemas) || schemas.length === 0) return 'unknown';
  return schemas.map((schema) => typeOf(schema, depth, indent)).join(' | ');
}

function objectType(schema: Record<string, unknown>, depth: number, indent: string): string {
  const properties = isObject(schema['properties']) ? schema['properties'] : {};
  const required = new Set(Array.isArray(schema['required']) ? schema['required'] : []);
  const entries = Object.entries(properties).slice(0, MAX_PROPERTIES);
  if (entries.length === 0) return 'Record<string, unknown>';
  const inner = `${indent}  `;
  const lines = entries.map(([key, value]) => {
    const name = IDENTIFIER.test(key) ? key : JSON.stringify(key);
    const optional = required.has(key) ? '' : '?';
    const description = isObject(value) ? value['description'] : undefined;
    return `${comment(description, inner)}${inner}${name}${optional}: ${typeOf(value, depth + 1, inner)};`;
  });
  return `{\n${lines.join('\n')}\n${indent}}`;
}

function typeOf(schema: unknown, depth: number, indent: string): string {
  if (!isObject(schema) || depth > MAX_DEPTH) return 'unknown';
  if ('const' in schema) return literal(schema['const']);
  if (Array.isArray(schema['enum'])) return schema['enum'].map(literal).join(' | ') || 'never';
  if (schema['anyOf'] !== undefined) return union(schema['anyOf'], depth, indent);
  if (schema['oneOf'] !== undefined) return union(schema['oneOf'], depth, indent);
  const type = schema['type'];
  if (Array.isArray(type)) {
    return type.map((entry) => typeOf({ ...schema, type: entry }, depth, indent)).join(' | ');
  }
  switch (type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array': {
      const item = typeOf(schema['items'], depth + 1, indent);
      return item.includes(' ') && !item.startsWith('{') ? `(${item})[]` : `${item}[]`;
    }
    case 'object':
      return objectType(schema, depth, indent);
    default:
      return isObject(schema['properties']) ? objectType(schema, depth, indent) : 'unknown';
  }
}

/**
 * The TypeScript declaration of one tool as a program calls it: a function of
 * `tools`, taking the arguments object its `inputSchema` describes and answering what its
 * `outputSchema` describes (`unknown` without one).
 *
 * @example
 * ```ts
 * declareTool({ name: 'get_weather', description: 'Weather now.',
 *   inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } });
 * // /** Weather now. *\/
 * // declare function get_weather(args: {
 * //   city: string;
 * // }): Promise<unknown>;
 * ```
 *
 * @param tool - the tool, with an optional `outputSchema`
 * @returns the declaration text
 * @throws nothing: parts of a schema it cannot read become `unknown`
 */
export function declareTool(tool: ToolWithOutput): string {
  const name = IDENTIFIER.test(tool.name) ? tool.name : JSON.stringify(tool.name);
  const input = typeOf({ type: 'object', ...tool.inputSchema }, 0, '');
  const output = tool.outputSchema === undefined ? 'unknown' : typeOf(tool.outputSchema, 0, '');
  const header = comment(tool.description, '');
  const call = IDENTIFIER.test(tool.name)
    ? `declare function ${name}(args: ${input}): Promise<${output}>;`
    : `// call it as tools.call(${name}, args)\ndeclare function tool(args: ${input}): Promise<${output}>;`;
  return `${header}${call}`;
}
