import { createRequire } from 'node:module';
import type { Ajv, Options, ValidateFunction } from 'ajv';
import type { Ajv2019 } from 'ajv/dist/2019.js';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { RE2JS } from 're2js';
import { describeError } from '../errors.js';
import { boundFormats, uniqueItems } from './bounded-keywords.js';
import { countEvaluation, spendPatternSteps } from './budget.js';
import { type PreparedSchema, prepareSchema, STEP_KEYWORD, withoutKeyword } from './prepare.js';
import type { SkippedKeyword } from './skipped.js';

// ajv, its formats and re2js are slow to load (benchmarks guide): load on the first check, so
// that importing a package that may validate (the bridge) stays cheap.
const require = createRequire(import.meta.url);

/** How a schema's `pattern` and `patternProperties` run: RE2 (linear time) or `RegExp`. */
export type PatternEngine = 'linear' | 'native';

/** A schema compiled for a bounded check, and what it leaves out. */
export interface CompiledSchema {
  validate: ValidateFunction;
  /** What the compiled copy leaves out of every check. */
  prepared: PreparedSchema;
  /** What budget overruns left unchecked so far (each keyword once), for `inspect`. */
  observed: SkippedKeyword[];
  /** Copies without a keyword a budget overrun dropped, by its pointer. */
  variants: Map<string, CompiledSchema | { error: string }>;
  /** Which reports were made already, per report callback. */
  reported: WeakMap<object, Set<string>>;
  /** Compiles a copy of the prepared schema without the keywords at `pointers`. */
  recompile(pointers: readonly string[]): CompiledSchema | { error: string };
}

/** A compiled schema, or why it could not be compiled. */
export type Compiled = CompiledSchema | { error: string };

type Draft = '2020-12' | '2019-09' | 'draft-07';
type AnyAjv = Ajv | Ajv2019 | Ajv2020;

interface Libraries {
  Ajv: typeof Ajv;
  Ajv2019: typeof Ajv2019;
  Ajv2020: typeof Ajv2020;
  addFormats: (ajv: AnyAjv) => unknown;
  RE2JS: typeof RE2JS;
}

let libraries: Libraries | undefined;

function load(): Libraries {
  libraries ??= {
    Ajv: (require('ajv') as { Ajv: typeof Ajv }).Ajv,
    Ajv2019: (require('ajv/dist/2019.js') as { Ajv2019: typeof Ajv2019 }).Ajv2019,
    Ajv2020: (require('ajv/dist/2020.js') as { Ajv2020: typeof Ajv2020 }).Ajv2020,
    addFormats: (require('ajv-formats') as { default: (ajv: AnyAjv) => unknown }).default,
    RE2JS: (require('re2js') as { RE2JS: typeof RE2JS }).RE2JS,
  };
  return libraries;
}

const MAX_CACHED_PATTERNS = 1000;
const linearPatterns = new Map<string, { compiled: RE2JS; size: number } | { error: string }>();

function linearPattern(pattern: string): { compiled: RE2JS; size: number } | { error: string } {
  let known = linearPatterns.get(pattern);
  if (known) return known;
  try {
    const compiled = load().RE2JS.compile(pattern);
    // The program's length bounds the matcher's work per character (re2js keeps it on
    // an internal field: without it, assume the pattern's own length).
    const program = (compiled as unknown as { re2Input?: { prog?: { inst?: unknown[] } } }).re2Input
      ?.prog?.inst;
    known = {
      compiled,
      size: Math.max(Array.isArray(program) ? program.length : 0, pattern.length, 1),
    };
  } catch (error) {
    known = {
      error: `its pattern ${JSON.stringify(pattern)} needs a feature the linear-time matcher does not have (${describeError(error)}); patterns: 'native' runs it with RegExp, for schemas you trust`,
    };
  }
  linearPatterns.set(pattern, known);
  if (linearPatterns.size > MAX_CACHED_PATTERNS) {
    const oldest = linearPatterns.keys().next().value;
    if (oldest !== undefined) linearPatterns.delete(oldest);
  }
  return known;
}

/** Why the linear engine cannot run a pattern, or `undefined` when it can. */
function linearPatternProblem(pattern: string): string | undefined {
  const known = linearPattern(pattern);
  return 'error' in known ? known.error : undefined;
}

/**
 * A `RegExp` stand-in for ajv over RE2 (linear-time matching). ajv tells patterns
 * apart by `toString()`, so it must differ per pattern. A test whose cost (program
 * length times string length) no longer fits the check's budget is not run: the
 * pattern passes, and the check reports it as left unchecked.
 */
function linearRegExp(
  pattern: string,
  flags: string,
): { test(input: string): boolean; toString(): string } {
  const known = linearPattern(pattern);
  if ('error' in known) throw new Error(known.error);
  const { compiled, size } = known;
  return {
    test: (input) =>
      spendPatternSteps(pattern, size * (input.length + 1)) ? compiled.test(input) : true,
    toString: () => `/${pattern}/${flags}`,
  };
}

const AJV_OPTIONS: Options = {
  // Tool schemas come from third parties and carry keywords of their own.
  strict: false,
  allErrors: true,
  // The repair step reads the failing value and its subschema off each error.
  verbose: true,
  validateFormats: true,
  // Unknown formats are ignored; without this ajv says so on the console for every schema.
  logger: false,
};

const instances = new Map<string, AnyAjv>();

function ajvFor(draft: Draft, patterns: PatternEngine): AnyAjv {
  const key = `${draft}:${patterns}`;
  let ajv = instances.get(key);
  if (!ajv) {
    const lib = load();
    const options: Options =
      patterns === 'linear'
        ? { ...AJV_OPTIONS, code: { regExp: linearRegExp as never } }
        : AJV_OPTIONS;
    ajv =
      draft === '2020-12'
        ? new lib.Ajv2020(options)
        : draft === '2019-09'
          ? new lib.Ajv2019(options)
          : new lib.Ajv(options);
    lib.addFormats(ajv);
    boundFormats(ajv);
    ajv.addKeyword({
      keyword: STEP_KEYWORD,
      schemaType: 'number',
      errors: false,
      validate: (location: number) => countEvaluation(location),
    });
    // ajv compares every pair of items (quadratic); ours hashes each item once.
    ajv.removeKeyword('uniqueItems');
    ajv.addKeyword({
      keyword: 'uniqueItems',
      type: 'array',
      schemaType: 'boolean',
      errors: true,
      validate: uniqueItems,
    });
    instances.set(key, ajv);
  }
  return ajv;
}

function draftsFor(schema: Record<string, unknown>): Draft[] {
  const declared = schema.$schema;
  if (typeof declared !== 'string') {
    // The MCP specification makes 2020-12 the default; older servers wrote draft-07.
    return ['2020-12', 'draft-07'];
  }
  if (declared.includes('2020-12')) return ['2020-12'];
  if (declared.includes('2019-09')) return ['2019-09'];
  return ['draft-07'];
}

const MAX_NULLABLE_DEPTH = 64;

// Keywords whose value maps names to subschemas: the map itself is not a schema (a
// property may well be called `nullable`).
const SCHEMA_MAPS = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
]);

/**
 * OpenAPI's `nullable: true` the way schema authors mean it: ajv accepts it beside a
 * `type` only, and still applies an `enum` without `null` to a `null`. A copy where
 * `null` passes both (the input is never changed).
 */
function honourNullable(node: unknown, depth = 0): unknown {
  if (depth > MAX_NULLABLE_DEPTH || typeof node !== 'object' || node === null) return node;
  if (Array.isArray(node)) return node.map((item) => honourNullable(item, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'enum' || key === 'const') copy[key] = value;
    else if (SCHEMA_MAPS.has(key) && typeof value === 'object' && value !== null) {
      copy[key] = Object.fromEntries(
        Object.entries(value).map(([name, schema]) => [name, honourNullable(schema, depth + 1)]),
      );
    } else copy[key] = honourNullable(value, depth + 1);
  }
  if (copy.nullable === true) {
    if (Array.isArray(copy.enum) && !copy.enum.includes(null)) copy.enum = [...copy.enum, null];
    // Without a `type`, null already passes; ajv would refuse the schema instead.
    if (copy.type === undefined) delete copy.nullable;
  }
  return copy;
}

function mentionsNullable(schema: object): boolean {
  try {
    return JSON.stringify(schema).includes('"nullable":true');
  } catch {
    return false;
  }
}

function compileWith(ajv: AnyAjv, source: Record<string, unknown>): ValidateFunction {
  try {
    return ajv.compile(source);
  } finally {
    // The validator keeps what it needs; removing the schema keeps ajv from holding
    // every schema forever and lets two tools share an `$id`.
    try {
      ajv.removeSchema(source);
    } catch {
      // Nothing was registered.
    }
  }
}

function compiledFrom(
  ajv: AnyAjv,
  source: Record<string, unknown>,
  prepared: PreparedSchema,
  validate: ValidateFunction,
  parent?: CompiledSchema,
): CompiledSchema {
  const compiled: CompiledSchema = {
    validate,
    prepared,
    observed: parent?.observed ?? [],
    variants: parent?.variants ?? new Map(),
    reported: parent?.reported ?? new WeakMap(),
    recompile(pointers) {
      const key = pointers.join('\u0000');
      let variant = compiled.variants.get(key);
      if (variant) return variant;
      let reduced = source;
      for (const pointer of pointers) reduced = withoutKeyword(reduced, pointer);
      try {
        variant = compiledFrom(ajv, reduced, prepared, compileWith(ajv, reduced), compiled);
      } catch (error) {
        variant = { error: describeError(error) };
      }
      compiled.variants.set(key, variant);
      return variant;
    },
  };
  return compiled;
}

function compileOnce(schema: Record<string, unknown>, patterns: PatternEngine): Compiled {
  let lastError = '';
  const nullable = mentionsNullable(schema)
    ? (honourNullable(schema) as Record<string, unknown>)
    : schema;
  let prepared: PreparedSchema;
  try {
    prepared = prepareSchema(nullable, patterns === 'linear' ? linearPatternProblem : undefined);
  } catch (error) {
    return { error: `the schema cannot be read (${describeError(error)})` };
  }
  for (const draft of draftsFor(prepared.schema)) {
    let ajv: AnyAjv;
    try {
      ajv = ajvFor(draft, patterns);
    } catch (error) {
      return { error: `the schema validator could not be loaded (${describeError(error)})` };
    }
    // draft-07 also serves undeclared drafts (04, 06): drop the meta-schema ajv would
    // otherwise look up and fail on.
    const declared = prepared.schema.$schema;
    const source =
      draft === 'draft-07' && typeof declared === 'string' && !/draft-0[67]/.test(declared)
        ? { ...prepared.schema, $schema: undefined }
        : prepared.schema;
    try {
      return compiledFrom(ajv, source, prepared, compileWith(ajv, source));
    } catch (error) {
      lastError = describeError(error);
    }
  }
  return { error: lastError };
}

/** How many compiled schemas are kept by content, per pattern engine. @internal */
export const MAX_CACHED_SCHEMAS = 1000;

// By identity first (a session's schemas are the same objects turn after turn), then by
// content (a rebuilt tool list brings equal schemas in new objects); the content cache
// is bounded, least recently used out first.
const byIdentity: Record<PatternEngine, WeakMap<object, Compiled>> = {
  linear: new WeakMap(),
  native: new WeakMap(),
};
const byContent: Record<PatternEngine, Map<string, Compiled>> = {
  linear: new Map(),
  native: new Map(),
};

function contentKey(schema: object): string | undefined {
  try {
    return JSON.stringify(schema);
  } catch {
    return undefined;
  }
}

/**
 * The compiled validator of a schema, compiled once per schema and engine.
 *
 * @param schema - a tool's input schema (a plain object)
 * @param patterns - the pattern engine
 * @returns the validator, or why the schema cannot be compiled
 * @throws nothing
 */
export function compiledSchema(schema: object, patterns: PatternEngine): Compiled {
  const known = byIdentity[patterns].get(schema);
  if (known) return known;
  const key = contentKey(schema);
  const cache = byContent[patterns];
  let compiled = key === undefined ? undefined : cache.get(key);
  if (compiled && key !== undefined) {
    cache.delete(key);
    cache.set(key, compiled);
  } else {
    compiled =
      key === undefined
        ? { error: 'the schema is not JSON (a cycle or a BigInt)' }
        : compileOnce(schema as Record<string, unknown>, patterns);
    if (key !== undefined) {
      cache.set(key, compiled);
      if (cache.size > MAX_CACHED_SCHEMAS) {
        const oldest = cache.keys().next().value;
        if (oldest !== undefined) cache.delete(oldest);
      }
    }
  }
  byIdentity[patterns].set(schema, compiled);
  return compiled;
}
