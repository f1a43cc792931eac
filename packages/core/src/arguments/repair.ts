import type { ErrorObject } from 'ajv';
import { pointerToPath } from './violations.js';

/** One value the validator repaired before checking, e.g. `"42"` to `42` for an integer. */
export interface ArgumentRepair {
  /** Where, as in {@link ArgumentViolation.path}: `arguments.options.count`. */
  path: string;
  /** The value the caller sent. */
  from: unknown;
  /** The value the call is dispatched with. */
  to: unknown;
}

const INTEGER = /^-?(?:0|[1-9]\d*)$/;
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

function hasRequiredFields(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  const required = (schema as { required?: unknown }).required;
  return Array.isArray(required) && required.length > 0;
}

function isEmptyObjectText(text: string): boolean {
  if (text === '') return true;
  if (!text.startsWith('{')) return false;
  try {
    const parsed: unknown = JSON.parse(text);
    return (
      typeof parsed === 'object' &&
      parsed !== null &&
      !Array.isArray(parsed) &&
      Object.keys(parsed).length === 0
    );
  } catch {
    return false;
  }
}

/**
 * The one value a string stands for under the expected types, or nothing when that is
 * not unambiguous: `"42"` for an integer, `"4.5"` for a number, `"true"`/`"false"` for
 * a boolean, `""` or `"{}"` for an object whose schema requires no field (an object
 * with required fields is never made up).
 */
function unambiguous(value: unknown, expected: readonly string[], subschema: unknown) {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (expected.includes('integer') || expected.includes('number')) {
    const pattern = expected.includes('number') ? NUMBER : INTEGER;
    if (pattern.test(text)) {
      const number = Number(text);
      const fits = expected.includes('number')
        ? Number.isFinite(number)
        : Number.isSafeInteger(number);
      if (fits) return { value: number };
    }
  }
  if (expected.includes('boolean') && (text === 'true' || text === 'false')) {
    return { value: text === 'true' };
  }
  if (expected.includes('object') && isEmptyObjectText(text) && !hasRequiredFields(subschema)) {
    return { value: {} };
  }
  return undefined;
}

function keysOf(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function setAt(root: Record<string, unknown>, keys: readonly string[], value: unknown): boolean {
  let node: unknown = root;
  for (const key of keys.slice(0, -1)) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return false;
    node = (node as Record<string, unknown>)[key];
  }
  const last = keys.at(-1);
  if (last === undefined || typeof node !== 'object' || node === null) return false;
  if (!Object.hasOwn(node, last)) return false;
  (node as Record<string, unknown>)[last] = value;
  return true;
}

/**
 * The arguments with every unambiguous `type` mismatch repaired, from the errors of a
 * failed check (ajv with `verbose: true`, so each error carries its value and
 * subschema).
 *
 * @param args - the arguments as sent (never changed)
 * @param errors - the errors of checking `args`
 * @returns a repaired copy and what changed, or `undefined` when nothing could be repaired
 * @throws nothing
 */
export function repairArguments(
  args: Record<string, unknown>,
  errors: readonly ErrorObject[],
): { arguments: Record<string, unknown>; repairs: ArgumentRepair[] } | undefined {
  // The rules are disjoint (digits, true/false, an empty object), so a string never
  // stands for two values: the first error at a path that fits a rule decides.
  const changes = new Map<string, { from: unknown; to: unknown }>();
  for (const error of errors) {
    if (error.keyword !== 'type' || error.instancePath === '') continue;
    if (changes.has(error.instancePath)) continue;
    const expected = String((error.params as { type?: unknown }).type).split(',');
    // Another branch of an anyOf may not fit a string at all: that takes nothing away
    // from the one repair that fits.
    const found = unambiguous(error.data, expected, error.parentSchema);
    if (found) changes.set(error.instancePath, { from: error.data, to: found.value });
  }
  if (changes.size === 0) return undefined;
  let copy: Record<string, unknown>;
  try {
    copy = structuredClone(args);
  } catch {
    return undefined;
  }
  const repairs: ArgumentRepair[] = [];
  for (const [pointer, change] of changes) {
    if (setAt(copy, keysOf(pointer), change.to)) {
      repairs.push({ path: pointerToPath(pointer), from: change.from, to: change.to });
    }
  }
  return repairs.length === 0 ? undefined : { arguments: copy, repairs };
}
