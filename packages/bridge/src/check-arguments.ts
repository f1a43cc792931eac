import type { JsonSchemaObject } from '@tool-search/core';
import {
  type ArgumentRepair,
  type ArgumentViolation,
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

/**
 * Checks a deferred call's arguments against its tool's schema with core's
 * `validateArguments`, repairs included. A schema that cannot be checked fails open
 * (the call goes out untouched), but its top-level `required` list still holds: the
 * design contract never invokes a call that misses a required argument.
 *
 * @param schema - the deferred tool's input schema
 * @param args - the parsed arguments object
 * @returns the arguments to dispatch, or the missing names and the violations
 * @throws nothing
 */
export function checkDeferredArguments(
  schema: JsonSchemaObject,
  args: Record<string, unknown>,
): ArgumentsVerdict {
  const checked = validateArguments(schema, args);
  if (checked.status === 'valid') {
    return { ok: true, arguments: checked.arguments, repairs: checked.repairs };
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
