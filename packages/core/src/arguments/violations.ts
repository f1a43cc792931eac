import type { ErrorObject } from 'ajv';

/**
 * One way a call's arguments break their tool's input schema.
 *
 * @example
 * ```ts
 * { path: 'arguments.options.count', constraint: 'type', message: 'must be integer' }
 * ```
 */
export interface ArgumentViolation {
  /**
   * Where, from the arguments object down: `arguments`, `arguments.options.count`,
   * `arguments.labels[1]`, `arguments["x-key"]`. For `required`, `additionalProperties`
   * and `unevaluatedProperties` it is the path of the missing or extra property itself.
   */
  path: string;
  /**
   * The JSON Schema keyword that failed: `type`, `enum`, `const`, `required`,
   * `additionalProperties`, `unevaluatedProperties`, `format`, `pattern`, `minimum`,
   * `minLength`, `anyOf`, ...
   */
  constraint: string;
  /** What was expected, in words, e.g. `must be one of ["low","high"]`, `is required`. */
  message: string;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * A child's path: `.name` for an identifier, `[index]` for an array index, else
 * `["quoted"]`.
 */
export function childPath(path: string, key: string, isIndex = false): string {
  if (isIndex) return `${path}[${key}]`;
  return IDENTIFIER.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/** A JSON pointer into the arguments (`/options/count`) as a path (`arguments.options.count`). */
export function pointerToPath(pointer: string): string {
  if (pointer === '') return 'arguments';
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, key) => childPath(path, key, /^\d+$/.test(key)), 'arguments');
}

function shortJson(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

// A property name comes from the caller and may be a megabyte long: a path goes back cut.
const MAX_PATH_LENGTH = 300;

function bounded(violation: ArgumentViolation): ArgumentViolation {
  const { path } = violation;
  if (path.length <= MAX_PATH_LENGTH) return violation;
  return {
    ...violation,
    path: `${path.slice(0, MAX_PATH_LENGTH)}…(${path.length - MAX_PATH_LENGTH} more characters)`,
  };
}

/**
 * One readable violation of an ajv error: where, which keyword, what was expected.
 *
 * @param error - an ajv error object
 * @returns the violation
 * @throws nothing
 */
export function toViolation(error: ErrorObject): ArgumentViolation {
  return bounded(describe(error));
}

function describe(error: ErrorObject): ArgumentViolation {
  const path = pointerToPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  const constraint = error.keyword;
  switch (constraint) {
    case 'required':
      return {
        path: childPath(path, String(params.missingProperty)),
        constraint,
        message: 'is required',
      };
    case 'additionalProperties':
      return {
        path: childPath(path, String(params.additionalProperty)),
        constraint,
        message: 'is not an allowed property',
      };
    case 'unevaluatedProperties':
      return {
        path: childPath(path, String(params.unevaluatedProperty)),
        constraint,
        message: 'is not an allowed property',
      };
    case 'type':
      return {
        path,
        constraint,
        message: `must be ${String(params.type).split(',').join(' or ')}`,
      };
    case 'enum':
      return { path, constraint, message: `must be one of ${shortJson(params.allowedValues)}` };
    case 'const':
      return { path, constraint, message: `must be ${shortJson(params.allowedValue)}` };
    case 'format':
      return { path, constraint, message: `must be a valid ${String(params.format)}` };
    default:
      return { path, constraint, message: error.message ?? `fails the '${constraint}' rule` };
  }
}
