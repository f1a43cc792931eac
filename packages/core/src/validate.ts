/**
 * Checks a call's arguments against its tool's input schema before dispatch, and
 * repairs what is unambiguous (`"42"` for an integer, `""` for an object that requires
 * no field): {@link validateArguments}. The bridge checks every deferred call with it,
 * and the hooks' schema guardrail is built on it.
 *
 * It has its own import path because it needs ajv, ajv-formats and re2js: the root
 * entry point never loads them, and this one loads them on the first check. Where the
 * runtime refuses code generation from strings (Cloudflare Workers, Vercel's edge
 * functions, a strict Content Security Policy), schemas are interpreted instead of
 * compiled by ajv, with the same verdicts, repairs and bounds (option `validator`).
 *
 * @example
 * ```ts
 * import { validateArguments } from '@tool-search/core/validate';
 *
 * const checked = validateArguments(tool.inputSchema, call.arguments);
 * if (checked.status === 'invalid') console.log(checked.violations); // [{ path, constraint, message }]
 * ```
 *
 * @packageDocumentation
 */

export { DEFAULT_MAX_ARGUMENT_BYTES } from './arguments/budget.js';
export type {
  ArgumentCheck,
  ArgumentsInvalid,
  ArgumentsUnchecked,
  ArgumentsValid,
  ValidateArgumentsOptions,
} from './arguments/check.js';
export { validateArguments } from './arguments/check.js';
export type { PatternEngine } from './arguments/compile.js';
export type { ValidatorEngine } from './arguments/engine.js';
export { canGenerateCode } from './arguments/engine.js';
export type { InputSchemaInspection } from './arguments/inspect.js';
export { inspectInputSchema } from './arguments/inspect.js';
export type { ArgumentRepair } from './arguments/repair.js';
export type { SkippedKeyword } from './arguments/skipped.js';
export type { ArgumentViolation } from './arguments/violations.js';
