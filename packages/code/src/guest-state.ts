// The state of one program inside a worker, and the steps every part of the run shares:
// a slice of guest time (the CPU clock), and the end of the run.
import type {
  QuickJSContext,
  QuickJSDeferredPromise,
  QuickJSHandle,
  QuickJSRuntime,
} from 'quickjs-emscripten';
import {
  classifyGuestError,
  errorDetails,
  GUEST_ERRORS,
  guestErrorMessage,
} from './guest-errors.js';
import type { GuestErrorCode, GuestLimits, GuestOutcome, WorkerMessage } from './protocol.js';

/** Where the worker sends its messages. */
export interface GuestPort {
  postMessage(message: WorkerMessage): void;
}

/** One program's state in the worker. */
export interface GuestState {
  readonly port: GuestPort;
  readonly limits: GuestLimits;
  readonly runtime: QuickJSRuntime;
  readonly context: QuickJSContext;
  /** The CPU clock: only time spent running guest code counts. */
  readonly clock: { usedMs: number; sliceStart: number | undefined; interrupted: boolean };
  /** The promises of the program's requests still waiting on the host, by request id. */
  readonly pending: Map<number, QuickJSDeferredPromise>;
  nextId: number;
  logChars: number;
  done: boolean;
  /** The prelude's function that turns the return value into JSON. */
  finish?: QuickJSHandle;
  /** The program's own promise. */
  program?: QuickJSHandle;
}

/**
 * Runs guest code as one slice of CPU time; the interrupt handler stops it past the limit.
 *
 * @param state - the run
 * @param work - what runs guest code
 * @returns what `work` answers
 */
export function slice<T>(state: GuestState, work: () => T): T {
  const { clock } = state;
  clock.sliceStart = performance.now();
  try {
    return work();
  } finally {
    clock.usedMs += performance.now() - clock.sliceStart;
    clock.sliceStart = undefined;
  }
}

/** Ends the run once: the outcome goes to the host and the interpreter is freed. */
export function endRun(state: GuestState, outcome: GuestOutcome): void {
  if (state.done) return;
  state.done = true;
  state.port.postMessage({ type: 'done', outcome });
  try {
    for (const deferred of state.pending.values()) deferred.dispose();
    state.finish?.dispose();
    state.program?.dispose();
    state.context.dispose();
    state.runtime.dispose();
  } catch {
    // A runtime that cannot be freed is not reused: the worker ends, the pool replaces it.
    process.exit(1);
  }
}

/** Ends the run with a failure. */
export function failRun(state: GuestState, code: GuestErrorCode, detail?: string): void {
  const message = guestErrorMessage(code, state.limits, detail);
  endRun(state, { ok: false, code, message, cpuMs: state.clock.usedMs });
}

/** Ends the run with what a thrown guest value stands for (a limit, or `fallback`). */
export function failWithThrown(
  state: GuestState,
  handle: QuickJSHandle,
  fallback: GuestErrorCode = GUEST_ERRORS.threw.code,
): void {
  const details = errorDetails(state.context, handle);
  handle.dispose();
  const code = classifyGuestError(details, state.clock.interrupted);
  failRun(
    state,
    code === GUEST_ERRORS.threw.code ? fallback : code,
    `${details.name}: ${details.message}`,
  );
}
