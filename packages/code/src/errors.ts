import { defineErrorCodes } from '@tool-search/core';

/**
 * The error codes `@tool-search/code` adds to core's (`TOOL_SEARCH_ERROR_CODES`): the
 * `code` of a program's `error` in a {@link ProgramResult}, and of a `ToolSearchError`
 * the package throws. Closed and registered with core's `ToolSearchErrorCodeRegistry`.
 * Every code, with what to do, is listed in `docs/guides/errors.md`.
 *
 * - `program_source_too_large`: the source is over `limits.maxSourceBytes`; nothing ran.
 * - `program_syntax_error`: the source does not parse; nothing ran.
 * - `program_threw`: the program threw (or rejected) and did not catch it.
 * - `program_cpu_limit`: the program ran longer than `limits.cpuTimeMs` (time spent waiting
 *   on tools and approvals does not count).
 * - `program_memory_limit`: the program used more than `limits.memoryBytes`.
 * - `program_stack_overflow`: the program recursed deeper than `limits.stackBytes` allows.
 * - `program_wall_limit`: the program was still running after `limits.wallTimeMs`; its
 *   worker was terminated.
 * - `program_stalled`: the program waits on a promise that nothing can settle (no tool
 *   call is in flight).
 * - `program_output_invalid`: the return value is not JSON (a cycle, a `BigInt`).
 * - `program_cancelled`: the caller's signal aborted the program.
 * - `program_budget_spent`: a nested call was refused because the program spent a budget
 *   (`maxCalls`, `maxLookups`, `maxWrites`, `maxBytesOut`, `maxBytesIn`); inside the program, the call
 *   throws with this code.
 * - `program_sandbox_failed`: the sandbox itself failed (the worker died); the program
 *   may have made calls, listed in `calls`.
 */
export const CODE_ERROR_CODES = [
  'program_source_too_large',
  'program_syntax_error',
  'program_threw',
  'program_cpu_limit',
  'program_memory_limit',
  'program_stack_overflow',
  'program_wall_limit',
  'program_stalled',
  'program_output_invalid',
  'program_cancelled',
  'program_budget_spent',
  'program_sandbox_failed',
] as const;

/** One of {@link CODE_ERROR_CODES}. */
export type CodeErrorCode = (typeof CODE_ERROR_CODES)[number];

declare module '@tool-search/core' {
  /** `@tool-search/code` registers {@link CODE_ERROR_CODES}. */
  interface ToolSearchErrorCodeRegistry extends Record<CodeErrorCode, true> {}
}

const codeErrorCodes = defineErrorCodes(CODE_ERROR_CODES);

/**
 * Whether a value is one of {@link CODE_ERROR_CODES}.
 *
 * @param value - any value
 * @returns true when `value` is a code of this package
 * @throws nothing
 */
export const isCodeErrorCode: (value: unknown) => value is CodeErrorCode = codeErrorCodes.is;
