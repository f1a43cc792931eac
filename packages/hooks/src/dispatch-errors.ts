import type { ToolSearchErrorCode } from '@tool-search/core';
import { describeError } from '@tool-search/core/internal';
import type { StepOutcome } from './run-step.js';
import type { DispatchError } from './types.js';

/**
 * Builds an error as the model and the logs see it: plain data, with the thrown value
 * kept in a non-enumerable `cause` so that it stays out of JSON.
 *
 * @param code - the error code
 * @param message - what failed and what to do next
 * @param cause - the thrown value, if there was one
 * @returns a {@link DispatchError}
 * @throws nothing
 */
export function dispatchError(
  code: ToolSearchErrorCode,
  message: string,
  cause?: unknown,
): DispatchError {
  const error: DispatchError = { code, message };
  if (cause !== undefined) {
    Object.defineProperty(error, 'cause', { value: cause, enumerable: false });
  }
  return error;
}

/**
 * Says how a step that did not answer a usable value went, for denials and warnings.
 *
 * @param outcome - the step's outcome (not `aborted`: a cancelled call says so itself)
 * @param timeoutMs - the step's time limit
 * @returns e.g. `did not answer within 1000 ms` or `failed: boom`
 * @throws nothing
 */
export function failureText(outcome: StepOutcome<unknown>, timeoutMs: number): string {
  if (outcome.kind === 'timeout') return `did not answer within ${timeoutMs} ms`;
  if (outcome.kind === 'thrown') return `failed: ${describeError(outcome.error)}`;
  return 'answered something unknown';
}
