import type { JsonSchemaObject } from '@tool-search/core';
import { isRecord } from '@tool-search/core/internal';

type Schema = Record<string, unknown>;

function isObjectSchema(schema: Schema): boolean {
  return (
    schema['type'] === 'object' || (schema['type'] === undefined && isRecord(schema['properties']))
  );
}

// A property that was optional must still be sent in strict mode: it may now be null.
function nullable(schema: Schema): Schema {
  const type = schema['type'];
  if (typeof type === 'string') {
    if (type === 'null') return schema;
    const out: Schema = { ...schema, type: [type, 'null'] };
    if (Array.isArray(schema['enum']) && !schema['enum'].includes(null)) {
      out['enum'] = [...schema['enum'], null];
    }
    return out;
  }
  if (Array.isArray(type))
    return type.includes('null') ? schema : { ...schema, type: [...type, 'null'] };
  return { anyOf: [schema, { type: 'null' }] };
}

function strictNode(node: unknown): unknown {
  if (!isRecord(node)) return node;
  const out: Schema = { ...node };
  // Strict mode supports anyOf, not oneOf; every branch must be strict too.
  if (Array.isArray(node['oneOf']) && node['anyOf'] === undefined) {
    out['anyOf'] = node['oneOf'];
    delete out['oneOf'];
  }
  if (Array.isArray(out['anyOf'])) out['anyOf'] = out['anyOf'].map(strictNode);
  if (node['items'] !== undefined) {
    out['items'] = Array.isArray(node['items'])
      ? node['items'].map(strictNode)
      : strictNode(node['items']);
  }
  for (const key of ['$defs', 'definitions'] as const) {
    const defs = node[key];
    if (isRecord(defs)) {
      out[key] = Object.fromEntries(
        Object.entries(defs).map(([name, def]) => [name, strictNode(def)]),
      );
    }
  }
  if (!isObjectSchema(node)) return out;
  const properties = isRecord(node['properties']) ? node['properties'] : {};
  const required = new Set(Array.isArray(node['required']) ? node['required'] : []);
  const strictProperties: Schema = {};
  for (const [name, property] of Object.entries(properties)) {
    const strict = strictNode(property);
    strictProperties[name] = required.has(name) || !isRecord(strict) ? strict : nullable(strict);
  }
  out['type'] = 'object';
  out['properties'] = strictProperties;
  out['required'] = Object.keys(strictProperties);
  out['additionalProperties'] = false;
  return out;
}

/**
 * Turns a JSON Schema into one OpenAI's strict mode accepts (`strict: true` on a
 * Responses function or a Chat Completions tool): in every object, every property is
 * required and `additionalProperties` is `false`; a property that was optional becomes
 * nullable (`type: [t, 'null']`, or `anyOf` with `{ type: 'null' }`), so the model sends
 * `null` for it. `oneOf` becomes `anyOf`. Map the model's arguments back with
 * {@link restoreStrictArguments}. The input is not changed.
 *
 * @example
 * ```ts
 * toStrictJsonSchema({ type: 'object', properties: { q: { type: 'string' }, n: { type: 'integer' } }, required: ['q'] });
 * // { type: 'object', properties: { q: { type: 'string' }, n: { type: ['integer', 'null'] } },
 * //   required: ['q', 'n'], additionalProperties: false }
 * ```
 *
 * @param schema - the tool's input schema
 * @returns the strict schema
 * @throws nothing
 */
export function toStrictJsonSchema(schema: JsonSchemaObject): JsonSchemaObject {
  return strictNode({ type: 'object', ...schema }) as JsonSchemaObject;
}

// Whether a property's own schema takes null: then a null the model sent may mean null.
function acceptsNull(schema: unknown): boolean {
  if (!isRecord(schema)) return false;
  const type = schema['type'];
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  if (schema['nullable'] === true || schema['const'] === null) return true;
  if (Array.isArray(schema['enum']) && schema['enum'].includes(null)) return true;
  return ['anyOf', 'oneOf'].some(
    (key) => Array.isArray(schema[key]) && (schema[key] as unknown[]).some(acceptsNull),
  );
}

function restoreNode(schema: unknown, value: unknown): unknown {
  if (!isRecord(schema) || !isRecord(value) || !isObjectSchema(schema)) return value;
  const properties = isRecord(schema['properties']) ? schema['properties'] : {};
  const required = new Set(Array.isArray(schema['required']) ? schema['required'] : []);
  const out: Schema = {};
  for (const [name, item] of Object.entries(value)) {
    const property = Object.hasOwn(properties, name) ? properties[name] : undefined;
    // The model sent null only because strict mode made the optional property required;
    // unless the tool's own schema takes null, when it may mean just that.
    if (item === null && !required.has(name) && property !== undefined && !acceptsNull(property)) {
      continue;
    }
    // Defined, not assigned: a "__proto__" key stays a key and never sets the prototype.
    Object.defineProperty(out, name, {
      value: restoreNode(property, item),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/**
 * Undoes what {@link toStrictJsonSchema} asked of the model: drops the `null` it sent
 * for a property that the tool's own schema has as optional (in nested objects too),
 * so the tool gets the arguments its own schema describes. A `null` for an optional
 * property whose own schema takes `null` (`type: [t, 'null']`, an `anyOf` branch,
 * `nullable`, `enum`/`const`) is kept: it may mean null. Every key, `"__proto__"`
 * included, stays an own property of the result; none can set its prototype.
 *
 * @param schema - the tool's own input schema (not the strict one)
 * @param args - the arguments the model sent
 * @returns the arguments without those `null`s; anything that is not an object is returned as it is
 * @throws nothing
 */
export function restoreStrictArguments(schema: JsonSchemaObject, args: unknown): unknown {
  return restoreNode({ type: 'object', ...schema }, args);
}
