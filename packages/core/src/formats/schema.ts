import { ToolSearchError } from '../errors.js';
import type { JsonSchemaObject } from '../types.js';

/** A JSON Schema object as the providers type it: `type: 'object'` and open keywords. */
export interface ProviderObjectSchema {
  type: 'object';
  properties?: unknown;
  required?: string[];
  [keyword: string]: unknown;
}

/**
 * The schema a provider gets: `type: 'object'` added when absent.
 * @throws `ToolSearchError` `invalid_tool_definition` when the schema's `type` is not `object`
 */
export function toProviderSchema(
  schema: JsonSchemaObject | undefined,
  tool: string,
): ProviderObjectSchema {
  if (schema === undefined) return { type: 'object', properties: {} };
  if (schema.type !== undefined && schema.type !== 'object') {
    throw new ToolSearchError(
      'invalid_tool_definition',
      `Tool '${tool}' has an input schema of type '${String(schema.type)}'; providers need type 'object'.`,
      { data: { tool } },
    );
  }
  // Spread after `type` so the bytes keep the schema's own key order when it has `type`.
  return { type: 'object', ...schema } as ProviderObjectSchema;
}

// The SDKs allow `null` for absent keywords; a ToolDefinition leaves them out.
export function fromProviderSchema(
  schema: { [keyword: string]: unknown } | null | undefined,
): JsonSchemaObject {
  if (schema === null || schema === undefined) return { type: 'object', properties: {} };
  const out: JsonSchemaObject = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (value === null && (keyword === 'properties' || keyword === 'required')) continue;
    out[keyword] = value;
  }
  return out;
}
