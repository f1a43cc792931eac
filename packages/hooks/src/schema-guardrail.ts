import type { ToolDefinition } from '@tool-search/core';
import { ToolSearchError } from '@tool-search/core';
import { describeError } from '@tool-search/core/internal';
import {
  type SkippedKeyword,
  type ValidatorEngine,
  validateArguments,
} from '@tool-search/core/validate';
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
  /**
   * Which validator checks (core's `validateArguments` option): `'auto'` picks ajv where
   * code generation from strings works, else the interpreter, so the guardrail judges
   * alike on Node, Cloudflare Workers and edge functions. `'compiled'` forces ajv (every
   * call is then denied where code generation is refused).
   * @defaultValue `'auto'`
   */
  validator?: ValidatorEngine;
  /**
   * What to do with a call whose check left a keyword of the schema unchecked while the
   * rest fitted: a pattern the linear engine cannot run, draft-04 `exclusiveMaximum:
   * true` without a `maximum`, or a keyword whose check would overrun the step budget
   * on these arguments (a recursive `anyOf` that doubles per level, a long pattern
   * program over a long string). `'deny'` fails closed and names the keyword; `'allow'`
   * lets the call through when every other keyword fits. A call whose check overran its
   * budget is denied either way: the model can send smaller arguments.
   * @defaultValue `'deny'`
   */
  skippedKeywords?: 'allow' | 'deny';
  /**
   * The largest arguments checked, in bytes of compact JSON; larger ones are denied
   * before their schema is looked at.
   * @defaultValue `DEFAULT_MAX_ARGUMENT_BYTES` of `@tool-search/core/validate` (1 MiB)
   */
  maxArgumentBytes?: number;
  /**
   * Told of each keyword left unchecked, once per tool, keyword and pointer: a log
   * line or a metric. A callback that throws is ignored.
   */
  onSkippedKeyword?: (skipped: SkippedKeyword) => void;
  /** @defaultValue `'schema'` */
  name?: string;
}

function describeSkipped(skipped: readonly SkippedKeyword[]): string {
  return skipped
    .slice(0, 3)
    .map((entry) => `'${entry.keyword}' at ${entry.pointer} (${entry.reason})`)
    .join('; ');
}

/**
 * Creates a guardrail that validates a call's arguments against its tool's JSON
 * Schema and denies with a readable list of problems, each with its path and what was
 * expected, e.g. `arguments.title: is required; arguments.labels: must be array`.
 *
 * It is {@link @tool-search/core!"@tool-search/core/validate".validateArguments | validateArguments}
 * of `@tool-search/core/validate`, the validator the bridge checks deferred calls with,
 * without its repairs (a guardrail cannot change the arguments): the draft follows the
 * schema's `$schema` (2020-12 where none is declared, then draft-07), unknown keywords
 * are ignored, formats are checked, `nullable: true` lets `null` through, and each
 * schema is compiled once. Unlike the bridge, which dispatches a call whose schema
 * cannot be checked, the guardrail fails closed: a schema that cannot be compiled
 * denies the call, as does a tool with no known schema (unless `unknownTools: 'allow'`).
 *
 * The check is bounded: arguments over `maxArgumentBytes` are denied first, and the
 * check runs within a step budget (see `validateArguments`), so a hostile schema (a
 * recursive `anyOf`, `uniqueItems` over a large array, a long pattern program) cannot
 * hold the event loop. A keyword left unchecked is denied by default and named
 * (`skippedKeywords`). A schema's `pattern` runs on whatever the model sent, so by
 * default patterns run on a linear-time engine (RE2 semantics, see `patterns`): a
 * third-party schema with a catastrophic pattern cannot stall the process.
 *
 * @param lookup - finds the tool by name; without it (or when it answers `undefined`),
 * `ctx.tool` is used when it has the call's name
 * @param options.unknownTools - what to do without a schema
 * @param options.maxProblems - how many problems a denial lists
 * @param options.name - the guardrail's name in denials
 * @param options.patterns - `'linear'` (RE2, the default) or `'native'` (`RegExp`)
 * @param options.validator - `'auto'` (the default), `'compiled'` (ajv) or `'interpreted'`
 * @param options.skippedKeywords - deny (the default) or allow a call whose check left a keyword unchecked
 * @param options.maxArgumentBytes - the size limit checked first
 * @param options.onSkippedKeyword - told once of each keyword left unchecked
 * @returns a {@link Guardrail}
 * @throws `ToolSearchError` `invalid_argument` when `maxProblems` is not a positive
 * integer, `patterns` is neither `'linear'` nor `'native'`, `validator` is not `'auto'`, `'compiled'` or `'interpreted'`, `skippedKeywords` is neither
 * `'allow'` nor `'deny'`, or `maxArgumentBytes` is not a positive number
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
  const validator = options.validator ?? 'auto';
  if (validator !== 'auto' && validator !== 'compiled' && validator !== 'interpreted') {
    throw new ToolSearchError(
      'invalid_argument',
      `createSchemaGuardrail: validator must be 'auto', 'compiled' or 'interpreted', got ${describeError(validator)}.`,
    );
  }
  const skippedKeywords = options.skippedKeywords ?? 'deny';
  if (skippedKeywords !== 'allow' && skippedKeywords !== 'deny') {
    throw new ToolSearchError(
      'invalid_argument',
      `createSchemaGuardrail: skippedKeywords must be 'allow' or 'deny', got ${describeError(skippedKeywords)}.`,
    );
  }
  const { maxArgumentBytes, onSkippedKeyword } = options;
  if (
    maxArgumentBytes !== undefined &&
    (typeof maxArgumentBytes !== 'number' || !(maxArgumentBytes > 0))
  ) {
    throw new ToolSearchError(
      'invalid_argument',
      `createSchemaGuardrail: maxArgumentBytes must be a positive number, got ${String(maxArgumentBytes)}.`,
    );
  }
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
      // A guardrail cannot change the arguments, so it judges them exactly as sent (the
      // bridge repairs deferred calls before they get here).
      const checked = validateArguments(schema, call.arguments, {
        patterns,
        validator,
        repair: false,
        maxViolations: maxProblems,
        tool: call.name,
        ...(maxArgumentBytes === undefined ? {} : { maxArgumentBytes }),
        ...(onSkippedKeyword === undefined ? {} : { onSkippedKeyword }),
      });
      if (checked.status === 'unchecked') {
        return {
          allow: false,
          // A schema that compiles can still overrun the check's budget on these arguments.
          reason: `The input schema of '${call.name}' could not be ${
            checked.reason.startsWith('checking') ? 'checked on these arguments' : 'compiled'
          } (${checked.reason}), so its arguments cannot be checked and the call is denied.`,
        };
      }
      if (checked.status === 'valid') {
        const skipped = checked.skipped ?? [];
        const denied =
          skippedKeywords === 'deny'
            ? skipped
            : skipped.filter((entry) => entry.cause === 'budget');
        if (denied.length === 0) return { allow: true };
        return {
          allow: false,
          reason: `The arguments of '${call.name}' could not be fully checked against its schema, so the call is denied: ${describeSkipped(denied)}.${
            denied.some((entry) => entry.cause === 'budget')
              ? ' Send smaller or less deeply nested arguments and call again.'
              : ''
          }`,
        };
      }
      const listed = checked.violations
        .map((violation) => `${violation.path}: ${violation.message}`)
        .join('; ');
      const more = checked.total > maxProblems ? ` (and ${checked.total - maxProblems} more)` : '';
      return {
        allow: false,
        reason: `The arguments of '${call.name}' do not match its schema: ${listed || 'they are invalid'}${more}. Fix them and call again.`,
      };
    },
  };
}
