import type { ToolDefinition } from '@tool-search/core';
import { ToolSearchError } from '@tool-search/core';
import { describeError } from '@tool-search/core/internal';
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { RE2JS } from 're2js';
import type { Guardrail } from './types.js';

/** Finds a tool's definition by name; `undefined` when the tool is unknown. */
export type ToolLookup = (name: string) => ToolDefinition | undefined;

/** Options of {@link createSchemaGuardrail}. */
export interface SchemaGuardrailOptions {
  /**
   * What to do with a call whose tool has no known schema: 'deny' fails closed,
   * 'allow' lets it through unchecked.
   * @defaultValue `'deny'`
   */
  unknownTools?: 'allow' | 'deny';
  /** How many problems a denial lists. @defaultValue 10 */
  maxProblems?: number;
  /**
   * How a schema's `pattern` and `patternProperties` run on the model's arguments.
   * `'linear'`: RE2 semantics (the `re2js` engine), linear in the input's length, so a
   * hostile pattern such as `^(a+)+$` cannot stall the process; a pattern that needs
   * lookaround or backreferences then fails to compile and the tool's calls are denied
   * with that reason. `'native'`: JavaScript's `RegExp` (every ECMAScript pattern, but
   * a catastrophic one can take exponential time: only for schemas you trust).
   * @defaultValue `'linear'`
   */
  patterns?: 'linear' | 'native';
  /** @defaultValue `'schema'` */
  name?: string;
}

type Draft = '2020-12' | '2019-09' | 'draft-07';

type Compiled = { validate: ValidateFunction } | { error: string };

/**
 * A `RegExp` stand-in for ajv over RE2 (linear-time matching). ajv tells patterns
 * apart by `toString()`, so it must differ per pattern.
 */
function linearRegExp(
  pattern: string,
  flags: string,
): { test(input: string): boolean; toString(): string } {
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(pattern);
  } catch (error) {
    throw new Error(
      `its pattern ${JSON.stringify(pattern)} needs a feature the linear-time matcher does not have (${describeError(error)}); createSchemaGuardrail's patterns: 'native' runs it with RegExp, for schemas you trust`,
    );
  }
  return { test: (input) => compiled.test(input), toString: () => `/${pattern}/${flags}` };
}

const AJV_OPTIONS: Options = {
  // Tool schemas come from third parties and carry keywords of their own.
  strict: false,
  allErrors: true,
  validateFormats: true,
  // Unknown formats are ignored; without this ajv says so on the console for every schema.
  logger: false,
};

const addFormats = formats.default;

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

function pointerToPath(pointer: string): string {
  if (pointer === '') return 'arguments';
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, key) => {
      if (/^\d+$/.test(key)) return `${path}[${key}]`;
      if (/^[A-Za-z_$][\w$]*$/.test(key)) return `${path}.${key}`;
      return `${path}[${JSON.stringify(key)}]`;
    }, 'arguments');
}

function child(path: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

function shortJson(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** One readable problem: where, and what was expected. */
function describeProblem(error: ErrorObject): string {
  const path = pointerToPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `${child(path, String(params.missingProperty))}: is required`;
    case 'additionalProperties':
      return `${child(path, String(params.additionalProperty))}: is not an allowed property`;
    case 'unevaluatedProperties':
      return `${child(path, String(params.unevaluatedProperty))}: is not an allowed property`;
    case 'type':
      return `${path}: must be ${String(params.type).split(',').join(' or ')}`;
    case 'enum':
      return `${path}: must be one of ${shortJson(params.allowedValues)}`;
    case 'const':
      return `${path}: must be ${shortJson(params.allowedValue)}`;
    case 'format':
      return `${path}: must be a valid ${String(params.format)}`;
    default:
      return `${path}: ${error.message ?? `fails the '${error.keyword}' rule`}`;
  }
}

// Shared by every schema guardrail: a validator depends only on its schema, and an
// ajv instance (its meta-schemas and formats) takes tens of milliseconds to build.
type PatternEngine = 'linear' | 'native';
const caches: Record<PatternEngine, WeakMap<object, Compiled>> = {
  linear: new WeakMap(),
  native: new WeakMap(),
};
const instances = new Map<string, Ajv | Ajv2019 | Ajv2020>();

function ajvFor(draft: Draft, patterns: PatternEngine): Ajv | Ajv2019 | Ajv2020 {
  const key = `${draft}:${patterns}`;
  let ajv = instances.get(key);
  if (!ajv) {
    const options: Options =
      patterns === 'linear'
        ? { ...AJV_OPTIONS, code: { regExp: linearRegExp as never } }
        : AJV_OPTIONS;
    ajv =
      draft === '2020-12'
        ? new Ajv2020(options)
        : draft === '2019-09'
          ? new Ajv2019(options)
          : new Ajv(options);
    addFormats(ajv);
    instances.set(key, ajv);
  }
  return ajv;
}

function compile(schema: Record<string, unknown>, patterns: PatternEngine): Compiled {
  let lastError = '';
  for (const draft of draftsFor(schema)) {
    const ajv = ajvFor(draft, patterns);
    // draft-07 also serves undeclared drafts (04, 06): drop the meta-schema ajv would
    // otherwise look up and fail on.
    const source =
      draft === 'draft-07' &&
      typeof schema.$schema === 'string' &&
      !/draft-0[67]/.test(schema.$schema)
        ? { ...schema, $schema: undefined }
        : schema;
    try {
      return { validate: ajv.compile(source) };
    } catch (error) {
      lastError = describeError(error);
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
  return { error: lastError };
}

/**
 * Creates a guardrail that validates a call's arguments against its tool's JSON
 * Schema with ajv, and denies with a readable list of problems, each with its path
 * and what was expected, e.g. `arguments.title: is required; arguments.labels: must
 * be array`.
 *
 * The draft follows the schema's `$schema`: 2020-12 and 2019-09 where declared,
 * draft-07 otherwise; a schema without `$schema` is read as 2020-12 (the MCP default)
 * and, if that fails to compile, as draft-07. Unknown keywords are ignored and
 * formats (`email`, `uri`, `date-time`, ...) are checked. Compiled validators are
 * cached per schema object in a `WeakMap`, so rebuilding the tool list costs nothing
 * while the schemas stay the same. A schema that cannot be compiled denies the call,
 * as does a tool with no known schema (unless `unknownTools: 'allow'`).
 *
 * Put {@link createArgumentSizeGuardrail} before it: validation time grows with the
 * size of the arguments. A schema's `pattern` runs on whatever the model sent, so by
 * default patterns run on a linear-time engine (RE2 semantics, see `patterns`): a
 * third-party schema with a catastrophic pattern cannot stall the process.
 *
 * @param lookup - finds the tool by name; without it (or when it answers `undefined`),
 * `ctx.tool` is used when it has the call's name
 * @param options.unknownTools - what to do without a schema
 * @param options.maxProblems - how many problems a denial lists
 * @param options.name - the guardrail's name in denials
 * @param options.patterns - `'linear'` (RE2, the default) or `'native'` (`RegExp`)
 * @returns a {@link Guardrail}
 * @throws `ToolSearchError` `invalid_argument` when `maxProblems` is not a positive
 * integer or `patterns` is neither `'linear'` nor `'native'`
 *
 * @example
 * ```ts
 * const byName = new Map(tools.map((tool) => [tool.name, tool]));
 * const dispatch = createDispatcher({
 *   execute,
 *   guardrails: [createArgumentSizeGuardrail(64_000), createSchemaGuardrail((name) => byName.get(name))],
 * });
 * // { status: 'denied', by: { kind: 'guardrail', name: 'schema' },
 * //   reason: "The arguments of 'github_create_issue' do not match its schema: arguments.title: is required. ..." }
 * ```
 */
export function createSchemaGuardrail(
  lookup?: ToolLookup,
  options: SchemaGuardrailOptions = {},
): Guardrail {
  const maxProblems = options.maxProblems ?? 10;
  if (!Number.isInteger(maxProblems) || maxProblems < 1) {
    throw new ToolSearchError(
      'invalid_argument',
      `createSchemaGuardrail: maxProblems must be a positive integer, got ${String(maxProblems)}.`,
    );
  }
  const unknownTools = options.unknownTools ?? 'deny';
  const patterns = options.patterns ?? 'linear';
  if (patterns !== 'linear' && patterns !== 'native') {
    throw new ToolSearchError(
      'invalid_argument',
      `createSchemaGuardrail: patterns must be 'linear' or 'native', got ${describeError(patterns)}.`,
    );
  }
  const cache = caches[patterns];
  return {
    name: options.name ?? 'schema',
    check(call, ctx) {
      const tool = lookup?.(call.name) ?? (ctx.tool?.name === call.name ? ctx.tool : undefined);
      const schema: unknown = tool?.inputSchema;
      if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
        if (unknownTools === 'allow') return { allow: true };
        return {
          allow: false,
          reason: tool
            ? `The tool '${call.name}' has no usable input schema, so its arguments cannot be checked and the call is denied.`
            : `No schema is known for the tool '${call.name}', so its arguments cannot be checked and the call is denied.`,
        };
      }
      let compiled = cache.get(schema);
      if (!compiled) {
        compiled = compile(schema as Record<string, unknown>, patterns);
        cache.set(schema, compiled);
      }
      if ('error' in compiled) {
        return {
          allow: false,
          reason: `The input schema of '${call.name}' could not be compiled (${compiled.error}), so its arguments cannot be checked and the call is denied.`,
        };
      }
      if (compiled.validate(call.arguments)) return { allow: true };
      const problems = [...new Set((compiled.validate.errors ?? []).map(describeProblem))];
      const listed = problems.slice(0, maxProblems).join('; ');
      const more =
        problems.length > maxProblems ? ` (and ${problems.length - maxProblems} more)` : '';
      return {
        allow: false,
        reason: `The arguments of '${call.name}' do not match its schema: ${listed || 'they are invalid'}${more}. Fix them and call again.`,
      };
    },
  };
}
