import { TOOL_CALL } from '@tool-search/bridge';
import type { ToolCall } from '@tool-search/core';
import type { DispatchResult } from '@tool-search/hooks';

/** The overall deadline of one `tool_call` batch. @internal */
export interface BatchDeadline {
  /** Aborts when the deadline passes: hand it to each call of the batch. */
  readonly signal: AbortSignal;
  /** Whether the deadline has passed. */
  passed(): boolean;
  /** Stops the timer (the batch is answered). */
  clear(): void;
  /** The error result of a call the deadline cut short, or kept from running. */
  result(call: ToolCall, how: 'not run' | 'cancelled'): DispatchResult;
}

/**
 * Starts the deadline of a `tool_call` call when it is a batch (its `calls` is set): a
 * batch is one request of the client, and gets one call's time in all, so that ten
 * calls that each run to their limit cannot hold it for ten limits.
 *
 * @param call - the client's call
 * @param deadlineMs - the batch's time in all
 * @returns the deadline, or `undefined` for anything but a batch
 * @throws nothing
 * @internal
 */
export function startBatchDeadline(
  call: { name: string; arguments: Record<string, unknown> },
  deadlineMs: number,
): BatchDeadline | undefined {
  const calls = call.name === TOOL_CALL ? call.arguments['calls'] : undefined;
  if (calls === undefined || calls === null) return undefined;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), deadlineMs);
  timer.unref?.();
  return {
    signal: controller.signal,
    passed: () => controller.signal.aborted,
    clear: () => clearTimeout(timer),
    result: (real, how) => ({
      status: 'error',
      call: real,
      error: {
        code: 'upstream_timeout',
        message: `The call of '${real.name}' ${how === 'not run' ? 'was not run' : 'was cancelled'}: the tool_call batch passed its deadline of ${deadlineMs} ms (a batch gets the time of one call in all). Send the calls that did not finish again, in another tool_call.`,
      },
    }),
  };
}
