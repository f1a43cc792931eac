import type { JsonSchemaObject } from '@tool-search/core';
import {
  type ArgumentRepair,
  type ArgumentViolation,
  type SkippedKeyword,
  type ValidatorEngine,
  validateArguments,
} from '@tool-search/core/validate';

/** What {@link checkDeferredArguments} decided about a deferred call's arguments. */
export type ArgumentsVerdict =
  | {
      ok: true;
      /** What to dispatch: as sent, or repaired. */
      arguments: Record<string, unknown>;
      /** What was repaired (empty when nothing was). */
      repairs: ArgumentRepair[];
      /** Set when the schema could not be checked: why (the call goes out untouched). */
      unchecked?: string;
      /** The keywords left unchecked (the rest was checked), when any were. */
      skipped?: SkippedKeyword[];
    }
  | {
      ok: false;
      /** The top-level required arguments that are missing. */
      missing: string[];
      /** Every violation (at most 50). */
      violations: ArgumentViolation[];
      /** How many violations there were in all. */
      total: number;
    };

function missingRequired(schema: JsonSchemaObject, args: Record<string, unknown>): string[] {
  const required = schema.required;
  if (!Array.isArray(required)) return [];
  const missing: string[] = [];
  for (const key of required) {
    if (typeof key !== 'string') continue;
    if (!Object.hasOwn(args, key) || args[key] === undefined) missing.push(key);
  }
  return missing;
}

function requiredViolation(key: string): ArgumentViolation {
  const path = /^[A-Za-z_$][\w$]*$/.test(key)
    ? `arguments.${key}`
    : `arguments[${JSON.stringify(key)}]`;
  return { path, constraint: 'required', message: 'is required' };
}

/** Options of {@link checkDeferredArguments}. */
export interface CheckDeferredArgumentsOptions {
  /** The tool's name, for the reports of keywords left unchecked. */
  tool?: string;
  /** The largest arguments checked, in bytes of JSON. @defaultValue core's `DEFAULT_MAX_ARGUMENT_BYTES` (1 MiB) */
  maxArgumentBytes?: number;
  /** Told once of each keyword left unchecked. */
  onSkippedKeyword?: (skipped: SkippedKeyword) => void;
  /**
   * Which validator checks (core's `validateArguments` option): `'auto'` picks ajv where
   * code generation from strings works, else the interpreter; same verdicts either way.
   * @defaultValue `'auto'`
   */
  validator?: ValidatorEngine;
}

/**
 * Checks a deferred call's arguments against its tool's schema with core's
 * `validateArguments`, repairs included: arguments over `maxArgumentBytes` are refused
 * first, then the check runs within its step budget, and a keyword it cannot run or
 * that would overrun the budget is left unchecked (listed in `skipped`) while the rest
 * is checked. A schema that cannot be checked at all fails open (the call goes out
 * untouched), but its top-level `required` list still holds: the contract (`docs/guides/errors.md`) never
 * invokes a call that misses a required argument.
 *
 * @param schema - the deferred tool's input schema
 * @param args - the parsed arguments object
 * @param options.tool - the tool's name
 * @param options.maxArgumentBytes - the size limit
 * @param options.onSkippedKeyword - told once of each keyword left unchecked
 * @param options.validator - `'auto'` (the default), `'compiled'` or `'interpreted'`
 * @returns the arguments to dispatch, or the missing names and the violations
 * @throws `ToolSearchError` `invalid_argument` when `maxArgumentBytes` is not a positive number
 */
export function checkDeferredArguments(
  schema: JsonSchemaObject,
  args: Record<string, unknown>,
  options: CheckDeferredArgumentsOptions = {},
): ArgumentsVerdict {
  const checked = validateArguments(schema, args, {
    ...(options.tool === undefined ? {} : { tool: options.tool }),
    ...(options.maxArgumentBytes === undefined
      ? {}
      : { maxArgumentBytes: options.maxArgumentBytes }),
    ...(options.onSkippedKeyword === undefined
      ? {}
      : { onSkippedKeyword: options.onSkippedKeyword }),
    ...(options.validator === undefined ? {} : { validator: options.validator }),
  });
  if (checked.status === 'valid') {
    return {
      ok: true,
      arguments: checked.arguments,
      repairs: checked.repairs,
      ...(checked.skipped ? { skipped: checked.skipped } : {}),
    };
  }
  const missing = missingRequired(schema ?? {}, args);
  if (checked.status === 'invalid') {
    return { ok: false, missing, violations: checked.violations, total: checked.total };
  }
  if (missing.length > 0) {
    return {
      ok: false,
      missing,
      violations: missing.map(requiredViolation),
      total: missing.length,
    };
  }
  return { ok: true, arguments: args, repairs: [], unchecked: checked.reason };
}
