/**
 * Programs over tools: `tool_program`, a fourth bridge tool. The model writes a short
 * program that searches, describes and calls the session's tools; it runs in a QuickJS
 * sandbox (WebAssembly in a pool of worker threads), and every nested call goes through
 * the host's dispatcher with `via: 'program'`, meeting the same guardrails, approvals and
 * audit as a direct call.
 *
 * The entry points:
 * - {@link createProgramTool}: the tool and the function that runs a program.
 * - {@link createProgramPolicy}: the guardrail that says which tools programs may call
 *   (read-only ones by default).
 * - {@link declareTool}: the TypeScript declaration `tools.describe` answers.
 * - {@link createProgramWorkerPool}: one pool of sandbox workers for many program tools
 *   (a server's sessions).
 *
 * @example
 * ```ts
 * import { createProgramPolicy, createProgramTool } from '@tool-search/code';
 *
 * const dispatch = createDispatcher({ execute, resolveTool, guardrails: [createProgramPolicy()] });
 * const program = createProgramTool({ tools: scoped, dispatch });
 * const assembly = assembleTools({ tools: scoped, program });
 * const result = await program.run({ source: "return (await tools.search('issues')).length" });
 * ```
 *
 * @packageDocumentation
 */
export type { ToolWithOutput } from './declarations.js';
export { declareTool } from './declarations.js';
export type { CodeErrorCode } from './errors.js';
export { CODE_ERROR_CODES, isCodeErrorCode } from './errors.js';
export type { ProgramLimits } from './limits.js';
export { DEFAULT_PROGRAM_LIMITS } from './limits.js';
export type { ProgramPolicy, ProgramPolicyOptions } from './program-policy.js';
export { createProgramPolicy } from './program-policy.js';
export type { ProgramToolOptions } from './program-tool.js';
export { createProgramTool } from './program-tool.js';
export type {
  ProgramCall,
  ProgramError,
  ProgramResult,
  ProgramRunContext,
  ProgramTool,
} from './program-types.js';
export { TOOL_PROGRAM } from './program-types.js';
export type { ProgramWorkerPool, ProgramWorkerPoolOptions } from './program-worker-pool.js';
export { createProgramWorkerPool } from './program-worker-pool.js';
