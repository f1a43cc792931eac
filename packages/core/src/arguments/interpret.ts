import type { ErrorObject } from 'ajv';
import { countEvaluation } from './budget.js';
import {
  childPointer,
  type Evaluated,
  evaluateArray,
  evaluateObject,
  fresh,
  merge,
  type Place,
  type Run,
  unevaluated,
} from './interpret-containers.js';
import {
  type Failure,
  type FormatTest,
  hasType,
  numberFailures,
  type PatternTest,
  stringFailures,
  typeFailure,
  typeReportedAt,
  typesOf,
  valueFailures,
} from './interpret-keywords.js';
import { type Draft, indexReferences, lookUp, resolveUri } from './interpret-refs.js';
import { checkReferences, checkShape } from './interpret-shape.js';
import { STEP_KEYWORD } from './prepare.js';

/**
 * A validator that interprets a schema instead of compiling it to code, for runtimes
 * that refuse code generation from strings (Cloudflare Workers, Vercel's edge
 * functions, a page under a strict Content Security Policy, Node with
 * `--disallow-code-generation-from-strings`). It reports what ajv reports (the same
 * keywords, instance paths, `params` and messages, each error with its value and
 * subschema), counts every subschema evaluation against the same budget, and runs
 * patterns and formats through the same bounded tests.
 */

/** A validator function shaped as ajv's: the verdict, and the errors of the last call. */
export interface SchemaValidator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/** What the interpreter runs patterns and formats with. */
export interface InterpreterTools {
  pattern: PatternTest;
  formats: ReadonlyMap<string, FormatTest>;
}

/**
 * A validator for a schema, by interpretation.
 *
 * @param schema - the schema (prepared: with its step counters)
 * @param draft - the draft to read it as
 * @param tools - the pattern engine and the formats
 * @returns the validator
 * @throws `Error` when the schema is malformed, a pattern does not compile, or a
 * reference cannot be resolved (what makes ajv refuse to compile it)
 */
export function interpretSchema(
  schema: Record<string, unknown>,
  draft: Draft,
  tools: InterpreterTools,
): SchemaValidator {
  checkShape(schema, draft);
  const references = indexReferences(schema, draft);
  checkReferences(schema, references, references.baseOf.get(schema) ?? '');
  const patterns = new Map<string, { test(input: string): boolean }>();
  const pattern: PatternTest = (source) => {
    let compiled = patterns.get(source);
    if (!compiled) {
      compiled = tools.pattern(source);
      patterns.set(source, compiled);
    }
    return compiled;
  };
  let errors: ErrorObject[] = [];

  const push = (
    failure: Failure,
    place: Place,
    data: unknown,
    parentSchema: unknown,
    extra?: object,
  ): void => {
    errors.push({
      instancePath: place.path,
      schemaPath: `${place.schemaPath}/${failure.keyword}`,
      keyword: failure.keyword,
      params: { ...failure.params, ...extra },
      message: failure.message,
      schema: (parentSchema as Record<string, unknown>)[failure.keyword],
      parentSchema: parentSchema as Record<string, unknown>,
      data,
    } as ErrorObject);
  };

  const reference = (value: string, place: Place): { schema: unknown; base: string } => {
    const uri = resolveUri(value, place.base);
    const found = uri === undefined ? undefined : lookUp(references, uri);
    if (!found) throw new Error(`can't resolve reference ${value}`);
    return found;
  };

  function dynamicTarget(ref: string, place: Place): { schema: unknown; base: string } {
    const found = reference(ref, place);
    const hash = ref.indexOf('#');
    const name = hash === -1 ? '' : ref.slice(hash + 1);
    const target = found.schema as Record<string, unknown>;
    if (name === '' || name.startsWith('/') || target?.$dynamicAnchor !== name) return found;
    for (const uri of place.dynamic) {
      const outer = references.dynamicAnchors.get(`${uri}#${name}`);
      if (outer !== undefined) return { schema: outer, base: uri };
    }
    return found;
  }

  function recursiveTarget(place: Place): { schema: unknown; base: string } {
    const found = reference('#', place);
    if ((found.schema as Record<string, unknown>)?.$recursiveAnchor !== true) return found;
    for (const uri of place.dynamic) {
      const outer = references.documents.get(uri) as Record<string, unknown> | undefined;
      if (outer?.$recursiveAnchor === true) return { schema: outer, base: uri };
    }
    return found;
  }

  /** Evaluates `node` on `data`; pushes the errors; `seen` learns what it evaluated. */
  function evaluate(node: unknown, data: unknown, place: Place, seen: Evaluated): boolean {
    if (node === true || node === undefined) return true;
    if (node === false || typeof node !== 'object' || node === null) {
      errors.push({
        instancePath: place.path,
        schemaPath: place.schemaPath,
        keyword: 'false schema',
        params: {},
        message: 'boolean schema is false',
        schema: false,
        parentSchema: undefined as never,
        data,
      } as ErrorObject);
      return false;
    }
    const s = node as Record<string, unknown>;
    if (typeof s[STEP_KEYWORD] === 'number') countEvaluation(s[STEP_KEYWORD]);
    const base = references.baseOf.get(s) ?? place.base;
    const here: Place =
      base === place.base ? place : { ...place, base, dynamic: [...place.dynamic, base] };
    const start = errors.length;
    const at = (keyword: string): Place => ({
      ...here,
      schemaPath: `${here.schemaPath}/${keyword}`,
    });
    // What an in-place subschema evaluated counts even when it failed (as in ajv).
    const inPlace = (sub: unknown, keyword: string, into: Evaluated, target?: Place): boolean =>
      evaluate(sub, data, target ?? at(keyword), into);
    const child = (sub: unknown, value: unknown, key: string | number, keyword: string): boolean =>
      evaluate(sub, value, { ...at(keyword), path: childPointer(here.path, String(key)) }, fresh());

    const types = typesOf(s);
    const typeFailed = typeFailure(types, data);
    const typeAt = typeReportedAt(s, types);
    const report = (failures: readonly Failure[]): void => {
      for (const failure of failures) push(failure, here, data, s);
    };
    if (typeFailed && typeAt === 'first') report([typeFailed]);
    // ajv's order: the keywords of any type, then those of each type group, then
    // `unevaluated*` (the same order gives the same list of violations).
    if (typeof s.$ref === 'string') {
      const target = reference(s.$ref, here);
      inPlace(target.schema, '$ref', seen, { ...at('$ref'), base: target.base });
    }
    report(valueFailures(s, data));
    applicators(s, data, here, seen, inPlace);
    if (typeof s.$dynamicRef === 'string' && draft === '2020-12') {
      const target = dynamicTarget(s.$dynamicRef, here);
      inPlace(target.schema, '$dynamicRef', seen, { ...at('$dynamicRef'), base: target.base });
    }
    if (s.$recursiveRef === '#' && draft === '2019-09') {
      const target = recursiveTarget(here);
      inPlace(target.schema, '$recursiveRef', seen, { ...at('$recursiveRef'), base: target.base });
    }
    const deferred = (group: string): void => {
      if (typeFailed && typeAt === group) report([typeFailed]);
    };
    if (hasType(data, 'number')) report(numberFailures(s, data as number, tools.formats));
    else deferred('number');
    if (typeof data === 'string') report(stringFailures(s, data, pattern, tools.formats));
    else deferred('string');
    if (Array.isArray(data)) evaluateArray(run, s, data, here, seen, child);
    else deferred('array');
    if (hasType(data, 'object')) {
      evaluateObject(run, s, data as Record<string, unknown>, here, seen, { inPlace, child });
    } else deferred('object');
    if (draft !== 'draft-07') unevaluated(run, s, data, here, seen, child);
    return errors.length === start;
  }

  /** `not`, `anyOf`, `oneOf`, `allOf` and `if`, in ajv's order. */
  function applicators(
    s: Record<string, unknown>,
    data: unknown,
    here: Place,
    seen: Evaluated,
    inPlace: (sub: unknown, keyword: string, into: Evaluated) => boolean,
  ): void {
    const at = (keyword: string): Place => ({
      ...here,
      schemaPath: `${here.schemaPath}/${keyword}`,
    });
    const fail = (failure: Failure): void => push(failure, here, data, s);
    if (s.not !== undefined) {
      const mark = errors.length;
      const ok = evaluate(s.not, data, at('not'), fresh());
      errors.length = mark;
      if (ok) fail({ keyword: 'not', params: {}, message: 'must NOT be valid' });
    }
    if (Array.isArray(s.anyOf)) {
      const mark = errors.length;
      let any = false;
      s.anyOf.forEach((sub, i) => {
        const branch = fresh();
        if (evaluate(sub, data, at(`anyOf/${i}`), branch)) {
          any = true;
          merge(seen, branch);
        }
      });
      if (any) errors.length = mark;
      else fail({ keyword: 'anyOf', params: {}, message: 'must match a schema in anyOf' });
    }
    if (Array.isArray(s.oneOf)) {
      const mark = errors.length;
      const passing: number[] = [];
      const own: Evaluated[] = [];
      s.oneOf.forEach((sub, i) => {
        const branch = fresh();
        if (evaluate(sub, data, at(`oneOf/${i}`), branch)) {
          passing.push(i);
          own.push(branch);
        }
      });
      if (passing.length === 1 && own[0]) {
        errors.length = mark;
        merge(seen, own[0]);
      } else {
        if (passing.length > 1) errors.length = mark;
        const passingSchemas = passing.length > 1 ? passing.slice(0, 2) : null;
        fail({
          keyword: 'oneOf',
          params: { passingSchemas },
          message: 'must match exactly one schema in oneOf',
        });
      }
    }
    if (Array.isArray(s.allOf)) {
      s.allOf.forEach((sub, i) => {
        inPlace(sub, `allOf/${i}`, seen);
      });
    }
    if (s.if !== undefined && (s.then !== undefined || s.else !== undefined)) {
      const mark = errors.length;
      const condition = fresh();
      const holds = evaluate(s.if, data, at('if'), condition);
      errors.length = mark;
      if (holds) merge(seen, condition);
      const branch = holds ? 'then' : 'else';
      if (s[branch] !== undefined && !inPlace(s[branch], branch, seen)) {
        fail({
          keyword: 'if',
          params: { failingKeyword: branch },
          message: `must match "${branch}" schema`,
        });
      }
    }
  }

  const run: Run = { draft, errors: () => errors, push, evaluate, pattern };
  const rootBase = references.baseOf.get(schema) ?? '';
  const validate: SchemaValidator = (data) => {
    errors = [];
    const ok = evaluate(
      schema,
      data,
      { path: '', schemaPath: '#', base: rootBase, dynamic: [rootBase] },
      fresh(),
    );
    validate.errors = ok ? null : errors;
    return ok;
  };
  return validate;
}
