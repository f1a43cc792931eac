import { isRecord } from './is-record.js';
import type { ToolDefinition } from './types.js';

/**
 * A searchable field of a tool: its name, its description, the names and the
 * descriptions of its parameters, and its label (its toolset).
 */
export type ToolField =
  | 'name'
  | 'description'
  | 'parameterNames'
  | 'parameterDescriptions'
  | 'label';

/** The searchable fields of a tool, in the order rankers store them. */
export const TOOL_FIELDS = [
  'name',
  'description',
  'parameterNames',
  'parameterDescriptions',
  'label',
] as const satisfies readonly ToolField[];

// Bounds on the walk of a schema: third-party schemas can be deep and huge.
const MAX_SCHEMA_DEPTH = 3;
const MAX_PARAMETERS = 64;
const MAX_ENUM_VALUES = 16;

/** Parameter names and descriptions (with enum values), walked breadth-first through nested objects. */
function walkParameters(schema: unknown): { names: string[]; descriptions: string[] } {
  const names: string[] = [];
  const descriptions: string[] = [];
  let level: unknown[] = [schema];
  for (let depth = 0; depth < MAX_SCHEMA_DEPTH && level.length > 0; depth++) {
    const next: unknown[] = [];
    for (const node of level) {
      if (!isRecord(node)) continue;
      const properties = node['properties'];
      if (isRecord(properties)) {
        for (const [name, property] of Object.entries(properties)) {
          if (names.length >= MAX_PARAMETERS) break;
          names.push(name);
          collectDescriptions(property, descriptions);
          next.push(property);
        }
      }
      const items = node['items'];
      if (isRecord(items)) next.push(items);
      for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
        const variants = node[key];
        if (Array.isArray(variants)) next.push(...variants.slice(0, MAX_ENUM_VALUES));
      }
    }
    level = next;
  }
  return { names, descriptions };
}

/** A property's own description, its variants' descriptions and its string enum values. */
function collectDescriptions(property: unknown, out: string[]): void {
  if (!isRecord(property)) return;
  if (typeof property['description'] === 'string') out.push(property['description']);
  const values = property['enum'];
  if (Array.isArray(values)) {
    for (const value of values.slice(0, MAX_ENUM_VALUES)) {
      if (typeof value === 'string') out.push(value);
    }
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const variants = property[key];
    if (!Array.isArray(variants)) continue;
    for (const variant of variants.slice(0, MAX_ENUM_VALUES)) {
      if (!isRecord(variant)) continue;
      if (typeof variant['description'] === 'string') out.push(variant['description']);
      if (typeof variant['const'] === 'string') out.push(variant['const']);
    }
  }
}

/**
 * The text of each searchable field of a tool: its name, description, parameter names
 * (nested ones included, bounded), parameter descriptions with their enum values, and
 * its label (the toolset). Tolerates any shape of `inputSchema`. Rankers use it so
 * that they all search the same text.
 *
 * @param tool - the tool
 * @returns the text of each of {@link TOOL_FIELDS}
 * @throws nothing
 */
export function toolFieldTexts(tool: ToolDefinition): Record<ToolField, string> {
  const { names, descriptions } = walkParameters(tool.inputSchema);
  return {
    name: typeof tool.name === 'string' ? tool.name : '',
    description: typeof tool.description === 'string' ? tool.description : '',
    parameterNames: names.join(' '),
    parameterDescriptions: descriptions.join('\n'),
    label: typeof tool.toolset === 'string' ? tool.toolset : '',
  };
}
