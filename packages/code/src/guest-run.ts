// One program inside one worker: a fresh QuickJS runtime and context, the limits the
// interpreter enforces (CPU by its interrupt handler, heap, stack), and the loop that runs
// the program's jobs whenever the host answers one of its requests.
import type { QuickJSHandle, QuickJSWASMModule } from 'quickjs-emscripten';
import { classifyGuestError, errorDetails, GUEST_ERRORS } from './guest-errors.js';
import { createHostFunction, createLogFunction } from './guest-functions.js';
import { GUEST_PRELUDE, wrapProgram } from './guest-prelude.js';
import {
  endRun,
  failRun,
  failWithThrown,
  type GuestPort,
  type GuestState,
  slice,
} from './guest-state.js';
import type { GuestLimits, HostMessage } from './protocol.js';

export type { GuestPort } from './guest-state.js';

/** A running program, as the worker drives it. */
export interface GuestRun {
  /** Hands the program the host's answer to one of its requests. */
  reply(message: Extract<HostMessage, { type: 'reply' }>): void;
}

function createState(module: QuickJSWASMModule, port: GuestPort, limits: GuestLimits): GuestState {
  const runtime = module.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(limits.stackBytes);
  const clock = { usedMs: 0, sliceStart: undefined as number | undefined, interrupted: false };
  runtime.setInterruptHandler(() => {
    if (clock.sliceStart === undefined) return false;
    const over = clock.usedMs + (performance.now() - clock.sliceStart) > limits.cpuTimeMs;
    if (over) clock.interrupted = true;
    return over;
  });
  const context = runtime.newContext();
  return {
    port,
    limits,
    runtime,
    context,
    clock,
    pending: new Map(),
    nextId: 1,
    logChars: 0,
    done: false,
  };
}

// The prelude defines `tools`, `console` and `__host`, and answers the `finish` function.
function installPrelude(state: GuestState): void {
  const { context } = state;
  const host = createHostFunction(state);
  const log = createLogFunction(state);
  const prelude = context.unwrapResult(context.evalCode(GUEST_PRELUDE, 'prelude.js'));
  try {
    state.finish = context.unwrapResult(
      context.callFunction(prelude, context.undefined, host, log),
    );
  } finally {
    prelude.dispose();
    host.dispose();
    log.dispose();
  }
}

function finishValue(state: GuestState, value: QuickJSHandle) {
  const { context } = state;
  const max = context.newNumber(state.limits.maxResultChars);
  const result = slice(state, () =>
    context.callFunction(state.finish!, context.undefined, value, max),
  );
  max.dispose();
  value.dispose();
  if (result.error) return failWithThrown(state, result.error, GUEST_ERRORS.output.code);
  const { json, chars } = result.value.consume((handle) => context.dump(handle)) as {
    json?: string;
    chars: number;
  };
  endRun(state, {
    ok: true,
    ...(json === undefined ? {} : { json }),
    resultChars: chars,
    cpuMs: state.clock.usedMs,
  });
}

// Runs the jobs that are ready, then looks at the program's promise: settled, waiting on
// the host, or waiting on nothing at all.
function drive(state: GuestState) {
  if (state.done || state.program === undefined) return;
  const jobs = slice(state, () => state.runtime.executePendingJobs());
  if (jobs.error) return failWithThrown(state, jobs.error);
  const promise = state.context.getPromiseState(state.program);
  if (promise.type === 'fulfilled') return finishValue(state, promise.value);
  if (promise.type === 'rejected') return failWithThrown(state, promise.error);
  if (state.pending.size === 0) failRun(state, GUEST_ERRORS.stalled.code);
}

function evaluate(state: GuestState, source: string) {
  const evaluated = slice(state, () => state.context.evalCode(wrapProgram(source), 'program.js'));
  if (!evaluated.error) {
    state.program = evaluated.value;
    return drive(state);
  }
  const details = errorDetails(state.context, evaluated.error);
  evaluated.error.dispose();
  const code =
    details.name === 'SyntaxError'
      ? GUEST_ERRORS.syntax.code
      : classifyGuestError(details, state.clock.interrupted);
  failRun(state, code, `${details.name}: ${details.message}`);
}

function reply(state: GuestState, message: Extract<HostMessage, { type: 'reply' }>) {
  const deferred = state.pending.get(message.id);
  if (state.done || deferred === undefined) return;
  state.pending.delete(message.id);
  const text = message.ok
    ? `{"ok":true,"value":${message.json}}`
    : JSON.stringify({ ok: false, failure: message.failure });
  try {
    const handle = state.context.newString(text);
    deferred.resolve(handle);
    handle.dispose();
  } catch {
    return failRun(state, GUEST_ERRORS.memory.code);
  }
  drive(state);
}

/**
 * Starts one program in a fresh runtime and context.
 *
 * @param module - the worker's QuickJS module
 * @param port - where requests, logs and the outcome go
 * @param source - the program's source
 * @param limits - the limits the interpreter enforces
 * @returns the run, to hand replies to
 * @throws nothing: every failure ends the run with a `done` message
 */
export function startGuestRun(
  module: QuickJSWASMModule,
  port: GuestPort,
  source: string,
  limits: GuestLimits,
): GuestRun {
  let state: GuestState | undefined;
  try {
    state = createState(module, port, limits);
    installPrelude(state);
    evaluate(state, source);
  } catch (error) {
    if (state === undefined) {
      const message = `the sandbox failed: ${String(error)}`;
      port.postMessage({
        type: 'done',
        outcome: { ok: false, code: GUEST_ERRORS.sandbox.code, message, cpuMs: 0 },
      });
    } else {
      failRun(state, GUEST_ERRORS.sandbox.code, `the sandbox failed: ${String(error)}`);
    }
  }
  return { reply: (message) => (state === undefined ? undefined : reply(state, message)) };
}
