import { DATA_KEYWORDS, SCHEMA_MAPS } from './keyword-kinds.js';
import type { SkippedKeyword } from './skipped.js';

/** The keyword that counts each evaluation of a subschema (its value: the location id). */
export const STEP_KEYWORD = 'x-tool-search-step';

/** What {@link prepareSchema} made of a schema. */
export interface PreparedSchema {
  /** The copy to compile: counting keywords in, unrunnable keywords out. */
  schema: Record<string, unknown>;
  /** The keywords left out, with why. */
  skipped: SkippedKeyword[];
  /** Per location id, the JSON pointer of its subschema. */
  locations: string[];
  /** Per location id, the in-place applicators of its subschema that can repeat work. */
  applicators: string[][];
  /** Per pattern source, the pointers of the `pattern` keywords that hold it. */
  patterns: Map<string, string[]>;
  /** Per format name, the pointers of the `format` keywords that name it. */
  formats: Map<string, string[]>;
}

/** Can the linear-time engine run this pattern? The reason when it cannot. */
export type PatternCheck = (pattern: string) => string | undefined;

// In-place applicators: each evaluates more subschemas on the same value, so a cycle
// through them multiplies work. Branching ones first: they are what a budget overrun drops.
const BRANCHING = ['anyOf', 'oneOf', 'allOf', 'if', 'dependentSchemas', 'dependencies'];
const REFERENCES = ['$ref', '$dynamicRef', '$recursiveRef', 'not'];

function pointerPart(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * A copy of a schema ready for a bounded check: every subschema counts its evaluations
 * (a {@link STEP_KEYWORD} with its location id), draft-04's boolean `exclusiveMaximum`
 * and `exclusiveMinimum` read as the modern numbers, and each `pattern` or
 * `patternProperties` entry the linear engine cannot run is left out and reported
 * (with `patternProperties`, its sibling `additionalProperties` too: which names are
 * additional is no longer known).
 *
 * @param schema - the input schema (never changed)
 * @param checkPattern - whether a pattern can run, `undefined` to keep every pattern
 * @returns the copy and what was left out
 * @throws `RangeError` for a schema nested too deeply to walk
 */
export function prepareSchema(
  schema: Record<string, unknown>,
  checkPattern: PatternCheck | undefined,
): PreparedSchema {
  const prepared: PreparedSchema = {
    schema: {},
    skipped: [],
    locations: [],
    applicators: [],
    patterns: new Map(),
    formats: new Map(),
  };
  const skip = (keyword: string, pointer: string, reason: string): void => {
    prepared.skipped.push({ keyword, pointer, reason, cause: 'unsupported' });
  };

  function walk(node: unknown, pointer: string, depth: number): unknown {
    if (depth > 256) throw new RangeError('the schema is nested too deeply');
    if (typeof node !== 'object' || node === null) return node;
    if (Array.isArray(node)) {
      return node.map((item, index) => walk(item, `${pointer}/${index}`, depth + 1));
    }
    const source = node as Record<string, unknown>;
    const copy: Record<string, unknown> = {};
    let droppedPatternProperty = false;
    for (const [key, value] of Object.entries(source)) {
      const at = `${pointer}/${pointerPart(key)}`;
      if (DATA_KEYWORDS.has(key) || key === STEP_KEYWORD) {
        if (key !== STEP_KEYWORD) copy[key] = value;
      } else if (key === 'format' && typeof value === 'string') {
        copy[key] = value;
        const pointers = prepared.formats.get(value) ?? [];
        pointers.push(at);
        prepared.formats.set(value, pointers);
      } else if (key === 'pattern' && typeof value === 'string' && checkPattern) {
        const reason = checkPattern(value);
        if (reason === undefined) {
          copy[key] = value;
          const pointers = prepared.patterns.get(value) ?? [];
          pointers.push(at);
          prepared.patterns.set(value, pointers);
        } else skip('pattern', at, reason);
      } else if (
        SCHEMA_MAPS.has(key) &&
        typeof value === 'object' &&
        value !== null &&
        !Array.isArray(value)
      ) {
        const map: Record<string, unknown> = {};
        for (const [name, subschema] of Object.entries(value)) {
          const entryAt = `${at}/${pointerPart(name)}`;
          const reason =
            key === 'patternProperties' && checkPattern ? checkPattern(name) : undefined;
          if (reason === undefined) map[name] = walk(subschema, entryAt, depth + 1);
          else {
            skip('patternProperties', entryAt, reason);
            droppedPatternProperty = true;
          }
        }
        copy[key] = map;
      } else if (
        (key === 'exclusiveMaximum' || key === 'exclusiveMinimum') &&
        typeof value === 'boolean'
      ) {
        // Draft-04: a flag on `maximum` / `minimum`; since draft-06: the bound itself.
        const bound = key === 'exclusiveMaximum' ? 'maximum' : 'minimum';
        if (value && typeof source[bound] === 'number') copy[key] = source[bound];
        else if (value)
          skip(key, at, `draft-04 '${key}: true' without a numeric '${bound}' bounds nothing`);
      } else copy[key] = walk(value, at, depth + 1);
    }
    for (const bound of ['maximum', 'minimum'] as const) {
      const flag = bound === 'maximum' ? 'exclusiveMaximum' : 'exclusiveMinimum';
      if (source[flag] === true && typeof source[bound] === 'number') delete copy[bound];
    }
    if (droppedPatternProperty && 'additionalProperties' in copy) {
      delete copy.additionalProperties;
      skip(
        'additionalProperties',
        `${pointer}/additionalProperties`,
        'a patternProperties entry beside it was left unchecked, so which properties are additional is not known',
      );
    }
    const location = prepared.locations.length;
    prepared.locations.push(pointer);
    prepared.applicators.push(
      [...BRANCHING, ...REFERENCES].filter((keyword) => copy[keyword] !== undefined),
    );
    copy[STEP_KEYWORD] = location;
    return copy;
  }

  prepared.schema = walk(schema, '', 0) as Record<string, unknown>;
  return prepared;
}

/**
 * A copy of a prepared schema without the keyword at `pointer` (a JSON pointer into
 * the schema, whose last part is the keyword).
 *
 * @param schema - the prepared schema (never changed)
 * @param pointer - where the keyword is
 * @returns the copy
 * @throws nothing
 */
export function withoutKeyword(
  schema: Record<string, unknown>,
  pointer: string,
): Record<string, unknown> {
  const copy = structuredClone(schema);
  const keys = pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  let node: unknown = copy;
  for (const key of keys.slice(0, -1)) {
    if (typeof node !== 'object' || node === null) return copy;
    node = (node as Record<string, unknown>)[key];
  }
  const last = keys.at(-1);
  if (last !== undefined && typeof node === 'object' && node !== null) {
    delete (node as Record<string, unknown>)[last];
  }
  return copy;
}
