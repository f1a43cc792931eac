import { DATA_KEYWORDS, SCHEMA_MAPS } from './keyword-kinds.js';
/**
 * The references of a schema for the interpreting validator: every schema resource
 * (`$id`), anchor (`$anchor`, draft-07's `$id: '#name'`), dynamic anchor
 * (`$dynamicAnchor`) and recursive anchor (`$recursiveAnchor`), indexed once, so that
 * `$ref`, `$dynamicRef` and `$recursiveRef` resolve without generating code. A
 * reference to a document that is not part of the schema cannot be resolved: the
 * schema is then not checked, as ajv refuses to compile it.
 */

/** The JSON Schema drafts the validators tell apart. */
export type Draft = '2020-12' | '2019-09' | 'draft-07';

/** The base URI of a schema without `$id`: relative references resolve against it. */
export const DEFAULT_BASE = 'https://tool-search.invalid/schema.json';

/** What {@link indexReferences} found in a schema. */
export interface SchemaReferences {
  /** Schema resources (the root and each `$id`), by absolute URI without fragment. */
  documents: Map<string, unknown>;
  /** Plain-name anchors, by `uri#name`. */
  anchors: Map<string, unknown>;
  /** `$dynamicAnchor`s, by `uri#name`. */
  dynamicAnchors: Map<string, unknown>;
  /** The base URI each schema object is evaluated in. */
  baseOf: WeakMap<object, string>;
}

function withoutFragment(uri: string): string {
  const hash = uri.indexOf('#');
  return hash === -1 ? uri : uri.slice(0, hash);
}

/**
 * A reference resolved against a base URI.
 *
 * @param ref - the reference (`#/$defs/a`, `other.json#x`, an absolute URI)
 * @param base - the base URI
 * @returns the absolute URI, or `undefined` when it is not a URI reference
 * @throws nothing
 */
export function resolveUri(ref: string, base: string): string | undefined {
  try {
    const resolved = new URL(ref, base).href;
    return resolved.endsWith('#') ? resolved.slice(0, -1) : resolved;
  } catch {
    return undefined;
  }
}

/**
 * Every resource and anchor of a schema.
 *
 * @param schema - the root schema
 * @param draft - the draft it is read as (`$anchor` and `$dynamicAnchor` since 2019-09)
 * @returns the index
 * @throws `RangeError` for a schema nested too deeply to walk
 */
export function indexReferences(schema: unknown, draft: Draft): SchemaReferences {
  const references: SchemaReferences = {
    documents: new Map(),
    anchors: new Map(),
    dynamicAnchors: new Map(),
    baseOf: new WeakMap(),
  };
  function walk(node: unknown, base: string, depth: number): void {
    if (depth > 256) throw new RangeError('the schema is nested too deeply');
    if (typeof node !== 'object' || node === null) return;
    if (Array.isArray(node)) {
      for (const item of node) walk(item, base, depth + 1);
      return;
    }
    const source = node as Record<string, unknown>;
    let here = base;
    // In draft-07, `$id` beside `$ref` is ignored with every other sibling.
    const idApplies = draft !== 'draft-07' || source.$ref === undefined;
    if (typeof source.$id === 'string' && idApplies) {
      const resolved = resolveUri(source.$id, base);
      if (resolved !== undefined) {
        const hash = resolved.indexOf('#');
        if (hash !== -1 && draft === 'draft-07') {
          const fragment = resolved.slice(hash + 1);
          here = withoutFragment(resolved) === withoutFragment(base) ? base : resolved;
          references.anchors.set(`${withoutFragment(resolved)}#${fragment}`, source);
          if (withoutFragment(resolved) !== withoutFragment(base)) {
            here = withoutFragment(resolved);
            references.documents.set(here, source);
          }
        } else {
          here = withoutFragment(resolved);
          references.documents.set(here, source);
        }
      }
    }
    if (draft !== 'draft-07' && typeof source.$anchor === 'string') {
      references.anchors.set(`${here}#${source.$anchor}`, source);
    }
    if (draft === '2020-12' && typeof source.$dynamicAnchor === 'string') {
      references.anchors.set(`${here}#${source.$dynamicAnchor}`, source);
      references.dynamicAnchors.set(`${here}#${source.$dynamicAnchor}`, source);
    }
    references.baseOf.set(source, here);
    for (const [key, value] of Object.entries(source)) {
      if (DATA_KEYWORDS.has(key)) continue;
      if (SCHEMA_MAPS.has(key) && typeof value === 'object' && value !== null) {
        for (const entry of Object.values(value)) walk(entry, here, depth + 1);
      } else walk(value, here, depth + 1);
    }
  }
  references.documents.set(DEFAULT_BASE, schema);
  walk(schema, DEFAULT_BASE, 0);
  return references;
}

function unescapePointer(part: string): string {
  return decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * The schema a reference names, or `undefined` when the schema does not hold it.
 *
 * @param references - the schema's index
 * @param uri - the absolute URI (with a fragment: a JSON pointer or an anchor)
 * @returns the schema, with the base URI it is evaluated in
 * @throws nothing
 */
export function lookUp(
  references: SchemaReferences,
  uri: string,
): { schema: unknown; base: string } | undefined {
  const hash = uri.indexOf('#');
  const document = hash === -1 ? uri : uri.slice(0, hash);
  const fragment = hash === -1 ? '' : uri.slice(hash + 1);
  const baseOf = (schema: unknown, fallback: string): string =>
    (typeof schema === 'object' && schema !== null ? references.baseOf.get(schema) : undefined) ??
    fallback;
  if (fragment !== '' && !fragment.startsWith('/')) {
    const anchored = references.anchors.get(`${document}#${fragment}`);
    return anchored === undefined
      ? undefined
      : { schema: anchored, base: baseOf(anchored, document) };
  }
  let node = references.documents.get(document);
  if (node === undefined) return undefined;
  let base = document;
  if (fragment === '') return { schema: node, base };
  for (const part of fragment.split('/').slice(1)) {
    if (typeof node !== 'object' || node === null) return undefined;
    let key: string;
    try {
      key = unescapePointer(part);
    } catch {
      return undefined;
    }
    if (!Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
    base = baseOf(node, base);
  }
  return node === undefined ? undefined : { schema: node, base: baseOf(node, base) };
}
