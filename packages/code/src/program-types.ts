import type { ToolDefinition } from '@tool-search/core';
import type { Dispatcher } from '@tool-search/hooks';
import type { ToolWithOutput } from './declarations.js';
import type { CodeErrorCode } from './errors.js';

/** The name of the program tool. */
export const TOOL_PROGRAM = 'tool_program';

/** What became of one nested call a program made. */
export interface ProgramCall {
  /** The tool's name as the program gave it (cut to 200 characters). */
  name: string;
  /** `ok`: it ran; `denied`: policy or the session's scope refused it; `error`; `cancelled`. */
  status: 'ok' | 'denied' | 'error' | 'cancelled';
  /** Why, when it did not run or failed. */
  reason?: string;
}

/** Why a program did not complete. */
export interface ProgramError {
  /** One of `CODE_ERROR_CODES`, or `invalid_argument` for an input that is not `{ source: string }`. */
  code: CodeErrorCode | 'invalid_argument';
  message: string;
}

/**
 * What a program gave back: its return value (as JSON; cut to `limits.maxResultChars`),
 * its logs (cut to `limits.maxLogChars`), and every nested call it made, in the order
 * they settled.
 */
export interface ProgramResult {
  status: 'completed' | 'error';
  /** The id the program's nested calls carry in their context (`ctx.programId`) and audit records. */
  programId: string;
  /**
   * The return value, as `JSON.parse(JSON.stringify(value))`; absent for `undefined`.
   * When its JSON is longer than `limits.maxResultChars`, the JSON text cut to that
   * length (a string), and `resultTruncated` is true.
   */
  result?: unknown;
  /** True when `result` is the cut JSON text of a longer value. */
  resultTruncated?: boolean;
  /** Lines the program logged with `console.log` (and `info`, `warn`, `error`, `debug`). */
  logs: string[];
  calls: ProgramCall[];
  /** With `status: 'error'`. */
  error?: ProgramError;
  /** Time the program ran (its CPU limit counts this), in milliseconds. */
  cpuMs: number;
  /** Time from start to end, waits included. */
  durationMs: number;
}

/** What the host hands a run, besides the source. */
export interface ProgramRunContext {
  /** The session the nested calls belong to ('allow-session' approvals are per session). */
  sessionId?: string;
  /** Aborts the program: the worker is terminated and calls in flight are cancelled. */
  signal?: AbortSignal;
  /**
   * The dispatcher of this run's nested calls instead of the tool's `dispatch`, e.g. one
   * that also reports each settled call to the client that asked for the program.
   */
  dispatch?: Dispatcher;
  /**
   * The tools this run may reach, instead of the program tool's `tools` (e.g. the tools an
   * AI SDK 7 caller was bound to). Give the host's own definitions, as for `tools`.
   */
  tools?: readonly ToolWithOutput[];
  /**
   * Fields added to every nested call's dispatch context, e.g. an adapter's own context
   * (an AI SDK tool call id, the messages). The run's own fields (`via`, `programId`,
   * `signal`, `sessionId`, `tool`) win over these.
   */
  dispatchContext?: Readonly<Record<string, unknown>>;
}

/** The program tool: its definition for the model, and the function that runs a program. */
export interface ProgramTool {
  /** `tool_program`'s definition: give it to `assembleTools({ program })`. */
  definition: ToolDefinition;
  /**
   * Runs one program. Never throws: every failure is a result with `status: 'error'`.
   *
   * @param input - the model's arguments, `{ source }`
   * @param context - the session and a signal
   */
  run(input: unknown, context?: ProgramRunContext): Promise<ProgramResult>;
  /** Starts the pool's workers ahead of the first program; resolves when they are ready. */
  warm(): Promise<void>;
  /** Terminates the pool's workers (running programs end as `program_sandbox_failed`). */
  close(): Promise<void>;
}
