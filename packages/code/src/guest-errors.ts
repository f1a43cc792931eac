// How a program's failure inside the interpreter becomes a code and a text.
import type { QuickJSContext, QuickJSHandle } from 'quickjs-emscripten';
import type { GuestErrorCode, GuestLimits } from './protocol.js';

/** One code the worker decides, with its text. */
interface GuestError {
  code: GuestErrorCode;
  message: (limits: GuestLimits) => string;
  /** A limit's own text always; else the thrown error's text, when there is one. */
  fixed: boolean;
}

/** Each code the worker decides, named once. */
export const GUEST_ERRORS = {
  syntax: {
    code: 'program_syntax_error',
    message: () => 'the program does not parse',
    fixed: false,
  },
  threw: { code: 'program_threw', message: () => 'the program threw', fixed: false },
  cpu: {
    code: 'program_cpu_limit',
    message: (limits) => `the program ran longer than its CPU limit of ${limits.cpuTimeMs} ms`,
    fixed: true,
  },
  memory: {
    code: 'program_memory_limit',
    message: (limits) =>
      `the program used more than its memory limit of ${limits.memoryBytes} bytes`,
    fixed: true,
  },
  stack: {
    code: 'program_stack_overflow',
    message: () => 'the program recursed deeper than its stack allows',
    fixed: true,
  },
  stalled: {
    code: 'program_stalled',
    message: () =>
      'the program waits on a promise that nothing will settle (no tool call is in flight)',
    fixed: true,
  },
  output: {
    code: 'program_output_invalid',
    message: () => 'the return value is not JSON',
    fixed: false,
  },
  sandbox: { code: 'program_sandbox_failed', message: () => 'the sandbox failed', fixed: false },
} as const satisfies Record<string, GuestError>;

const BY_CODE = new Map<GuestErrorCode, GuestError>(
  Object.values(GUEST_ERRORS as Record<string, GuestError>).map((error) => [error.code, error]),
);

/**
 * The text of a failure: a limit's own text, else the detail (the thrown error), else the
 * code's generic text.
 */
export function guestErrorMessage(
  code: GuestErrorCode,
  limits: GuestLimits,
  detail: string | undefined,
): string {
  const error = BY_CODE.get(code);
  if (error === undefined) return detail ?? code;
  return error.fixed || detail === undefined ? error.message(limits) : detail;
}

/** The name and message of a thrown guest value, read without trusting it. */
export function errorDetails(
  context: QuickJSContext,
  handle: QuickJSHandle,
): { name: string; message: string } {
  try {
    const dumped = context.dump(handle) as unknown;
    if (dumped !== null && typeof dumped === 'object') {
      const { name, message } = dumped as { name?: unknown; message?: unknown };
      return { name: String(name ?? 'Error'), message: String(message ?? dumped) };
    }
    return { name: 'Error', message: String(dumped) };
  } catch {
    return { name: 'Error', message: 'the program threw a value that cannot be read' };
  }
}

/**
 * Which limit, if any, a thrown error stands for.
 *
 * @param details - the error's name and message
 * @param interrupted - whether the CPU interrupt fired
 * @returns the code
 */
export function classifyGuestError(
  details: { name: string; message: string },
  interrupted: boolean,
): GuestErrorCode {
  if (interrupted) return GUEST_ERRORS.cpu.code;
  if (/out of memory/i.test(details.message)) return GUEST_ERRORS.memory.code;
  if (/stack overflow/i.test(details.message)) return GUEST_ERRORS.stack.code;
  return GUEST_ERRORS.threw.code;
}
