import type { JsonSchemaObject } from '@tool-search/core';
import { TOOL_SEARCH } from '@tool-search/core/internal';
import { MAX_BATCH_CALLS, MAX_DESCRIBE_NAMES, MAX_SEARCH_QUERIES } from './batch-limits.js';

/** What the input schemas of the three bridge tools depend on. */
export interface BridgeSchemaOptions {
  /** OpenAI strict mode: every property required, nullable when optional, no open objects. */
  strict: boolean;
  /** The description of `tool_search`'s `limit`. */
  limitDescription: string;
  /** The `maximum` of `limit` (left out in strict mode, where the description says it). */
  maxSearchLimit?: number;
}

const NAME_DESCRIPTION = `The exact tool name, as ${TOOL_SEARCH} returned it.`;

// Strict mode has no optional properties: an optional one is required and may be null.
function optional(schema: Record<string, unknown>, strict: boolean): Record<string, unknown> {
  if (!strict) return schema;
  const type = schema['type'];
  return { ...schema, type: [type, 'null'] };
}

function objectSchema(
  properties: Record<string, Record<string, unknown>>,
  required: string[],
  strict: boolean,
): JsonSchemaObject {
  // An empty `required` is invalid in draft-04, which some providers still read.
  if (!strict)
    return required.length > 0
      ? { type: 'object', properties, required }
      : { type: 'object', properties };
  return {
    type: 'object',
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  };
}

// Strict mode's subset of JSON Schema does not take every bound everywhere: the
// descriptions say each bound, and only the lenient schemas carry it as a keyword.
function bounded(
  schema: Record<string, unknown>,
  bounds: Record<string, number | undefined>,
  strict: boolean,
) {
  if (strict) return schema;
  const result = { ...schema };
  for (const [key, value] of Object.entries(bounds)) if (value !== undefined) result[key] = value;
  return result;
}

/**
 * The input schema of `tool_search`: `query`, `queries` and `limit`, none required
 * (the answer says `query is required` when neither query is given).
 *
 * @param options - see {@link BridgeSchemaOptions}
 * @returns a fresh JSON Schema
 * @throws nothing
 */
export function searchSchema(options: BridgeSchemaOptions): JsonSchemaObject {
  const { strict } = options;
  return objectSchema(
    {
      query: optional(
        {
          type: 'string',
          description:
            "What you want to do, in a few words, e.g. 'create a github issue', or a tool's exact name. " +
            "'select:name_a,name_b' loads those exact tools with their parameters.",
        },
        strict,
      ),
      queries: optional(
        bounded(
          {
            type: 'array',
            items: { type: 'string' },
            description: `Several searches at once (at most ${MAX_SEARCH_QUERIES}), each answered as its own group. Use instead of query.`,
          },
          { maxItems: MAX_SEARCH_QUERIES },
          strict,
        ),
        strict,
      ),
      limit: optional(
        bounded(
          { type: 'integer', description: options.limitDescription },
          { minimum: 1, maximum: options.maxSearchLimit },
          strict,
        ),
        strict,
      ),
    },
    [],
    strict,
  );
}

/**
 * The input schema of `tool_describe`: `name` or `names`.
 *
 * @param options - see {@link BridgeSchemaOptions}
 * @returns a fresh JSON Schema
 * @throws nothing
 */
export function describeSchema(options: BridgeSchemaOptions): JsonSchemaObject {
  const { strict } = options;
  return objectSchema(
    {
      name: optional({ type: 'string', description: NAME_DESCRIPTION }, strict),
      names: optional(
        bounded(
          {
            type: 'array',
            items: { type: 'string' },
            description: `Several exact tool names at once (at most ${MAX_DESCRIBE_NAMES}). Use instead of name.`,
          },
          { maxItems: MAX_DESCRIBE_NAMES },
          strict,
        ),
        strict,
      ),
    },
    [],
    strict,
  );
}

/**
 * The input schema of `tool_call`: `name` and `arguments`, or `calls`. In strict mode
 * `arguments` is JSON text (strict mode allows no open object), parsed by the bridge.
 *
 * @param options - see {@link BridgeSchemaOptions}
 * @returns a fresh JSON Schema
 * @throws nothing
 */
export function callSchema(options: BridgeSchemaOptions): JsonSchemaObject {
  const { strict } = options;
  const argumentsSchema = strict
    ? {
        type: 'string',
        description:
          "The tool's arguments as JSON text of an object matching its schema, e.g. '{\"title\":\"Bug\"}' ('{}' for none).",
      }
    : {
        type: 'object',
        description: "The tool's arguments, as an object matching its schema ({} for none).",
      };
  // The outer name and arguments describe these already: each repeated word costs every turn.
  const item = objectSchema(
    {
      name: { type: 'string' },
      arguments: { type: argumentsSchema.type },
    },
    ['name', 'arguments'],
    strict,
  );
  return objectSchema(
    {
      name: optional({ type: 'string', description: NAME_DESCRIPTION }, strict),
      arguments: optional(argumentsSchema, strict),
      calls: optional(
        bounded(
          {
            type: 'array',
            items: item,
            description:
              `Several calls at once (at most ${MAX_BATCH_CALLS}), each { name, arguments }, run in order ` +
              'and answered one by one. Use instead of name and arguments.',
          },
          { maxItems: MAX_BATCH_CALLS },
          strict,
        ),
        strict,
      ),
    },
    [],
    strict,
  );
}
