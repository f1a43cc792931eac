import type { Ajv, Options } from 'ajv';
import type { Ajv2019 } from 'ajv/dist/2019.js';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { describeError } from '../errors.js';
import { boundedFormatTests, boundFormats, uniqueItems } from './bounded-keywords.js';
import { countEvaluation } from './budget.js';
import { type InterpreterTools, interpretSchema, type SchemaValidator } from './interpret.js';
import type { Draft } from './interpret-refs.js';
import { loadAjv, loadFormats } from './libraries.js';
import { linearPatternProblem, linearRegExp } from './linear-patterns.js';
import { type PreparedSchema, prepareSchema, STEP_KEYWORD, withoutKeyword } from './prepare.js';
import type { SkippedKeyword } from './skipped.js';

/** How a schema's `pattern` and `patternProperties` run: RE2 (linear time) or `RegExp`. */
export type PatternEngine = 'linear' | 'native';

/** A schema compiled for a bounded check, and what it leaves out. */
export interface CompiledSchema {
  validate: SchemaValidator;
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

type AnyAjv = Ajv | Ajv2019 | Ajv2020;

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
    const lib = loadAjv();
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

/** Builds a validator for a prepared schema of one draft (throws when it cannot). */
type Build = (source: Record<string, unknown>) => SchemaValidator;

/** The engine that checks: ajv's compiled code, or the interpreter. */
export type Engine = 'compiled' | 'interpreted';

let interpreterFormats: InterpreterTools['formats'] | undefined;

function interpreterTools(patterns: PatternEngine): InterpreterTools {
  interpreterFormats ??= boundedFormatTests(loadFormats());
  return {
    pattern:
      patterns === 'linear'
        ? (source) => linearRegExp(source, 'u')
        : (source) => new RegExp(source, 'u'),
    formats: interpreterFormats,
  };
}

function builderFor(draft: Draft, patterns: PatternEngine, engine: Engine): Build {
  if (engine === 'interpreted') {
    const tools = interpreterTools(patterns);
    return (source) => interpretSchema(source, draft, tools);
  }
  const ajv = ajvFor(draft, patterns);
  return (source) => compileWith(ajv, source);
}

function compileWith(ajv: AnyAjv, source: Record<string, unknown>): SchemaValidator {
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
  build: Build,
  source: Record<string, unknown>,
  prepared: PreparedSchema,
  validate: SchemaValidator,
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
        variant = compiledFrom(build, reduced, prepared, build(reduced), compiled);
      } catch (error) {
        variant = { error: describeError(error) };
      }
      compiled.variants.set(key, variant);
      return variant;
    },
  };
  return compiled;
}

function compileOnce(
  schema: Record<string, unknown>,
  patterns: PatternEngine,
  engine: Engine,
): Compiled {
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
    let build: Build;
    try {
      build = builderFor(draft, patterns, engine);
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
      return compiledFrom(build, source, prepared, build(source));
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
const byIdentity = new Map<string, WeakMap<object, Compiled>>();
const byContent = new Map<string, Map<string, Compiled>>();

function cachesFor(key: string): [WeakMap<object, Compiled>, Map<string, Compiled>] {
  let identity = byIdentity.get(key);
  let content = byContent.get(key);
  if (!identity || !content) {
    identity = new WeakMap();
    content = new Map();
    byIdentity.set(key, identity);
    byContent.set(key, content);
  }
  return [identity, content];
}

function contentKey(schema: object): string | undefined {
  try {
    return JSON.stringify(schema);
  } catch {
    return undefined;
  }
}

/**
 * The validator of a schema, built once per schema, pattern engine and validator engine.
 *
 * @param schema - a tool's input schema (a plain object)
 * @param patterns - the pattern engine
 * @param engine - ajv's compiled code or the interpreter
 * @returns the validator, or why the schema cannot be checked
 * @throws nothing
 */
export function compiledSchema(
  schema: object,
  patterns: PatternEngine,
  engine: Engine = 'compiled',
): Compiled {
  const [identity, cache] = cachesFor(`${engine}:${patterns}`);
  const known = identity.get(schema);
  if (known) return known;
  const key = contentKey(schema);
  let compiled = key === undefined ? undefined : cache.get(key);
  if (compiled && key !== undefined) {
    cache.delete(key);
    cache.set(key, compiled);
  } else {
    compiled =
      key === undefined
        ? { error: 'the schema is not JSON (a cycle or a BigInt)' }
        : compileOnce(schema as Record<string, unknown>, patterns, engine);
    if (key !== undefined) {
      cache.set(key, compiled);
      if (cache.size > MAX_CACHED_SCHEMAS) {
        const oldest = cache.keys().next().value;
        if (oldest !== undefined) cache.delete(oldest);
      }
    }
  }
  identity.set(schema, compiled);
  return compiled;
}
