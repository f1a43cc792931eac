// One program inside one worker: a fresh QuickJS runtime and context, the limits the
// interpreter enforces (CPU by its interrupt handler, heap, stack), and the loop that runs
// the program's jobs whenever the host answers one of its requests.
import type {
  QuickJSContext,
  QuickJSDeferredPromise,
  QuickJSHandle,
  QuickJSRuntime,
  QuickJSWASMModule,
} from 'quickjs-emscripten';
import { GUEST_PRELUDE, wrapProgram } from './guest-prelude.js';
import {
  type GuestErrorCode,
  type GuestLimits,
  type GuestOutcome,
  HOST_OPERATIONS,
  type HostMessage,
  type WorkerMessage,
} from './protocol.js';

/** Where the worker sends its messages. */
export interface GuestPort {
  postMessage(message: WorkerMessage): void;
}

/** A running program, as the worker drives it. */
export interface GuestRun {
  /** Hands the program the host's answer to one of its requests. */
  reply(message: Extract<HostMessage, { type: 'reply' }>): void;
}

/** The CPU clock of the program: only time spent running guest code counts. */
interface CpuClock {
  usedMs: number;
  sliceStart: number | undefined;
  interrupted: boolean;
}

function errorDetails(
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

// Each code the worker decides, with its text: a `fixed` text always (a limit), else the
// thrown error's own text when there is one.
interface GuestError {
  code: GuestErrorCode;
  message: (limits: GuestLimits) => string;
  fixed: boolean;
}
const GUEST_ERRORS = {
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

const MESSAGES: Partial<Record<GuestErrorCode, (limits: GuestLimits) => string>> =
  Object.fromEntries(
    Object.values(GUEST_ERRORS as Record<string, GuestError>)
      .filter((error) => error.fixed)
      .map((error) => [error.code, error.message]),
  );

function classify(details: { name: string; message: string }, clock: CpuClock): GuestErrorCode {
  if (clock.interrupted) return GUEST_ERRORS.cpu.code;
  if (/out of memory/i.test(details.message)) return GUEST_ERRORS.memory.code;
  if (/stack overflow/i.test(details.message)) return GUEST_ERRORS.stack.code;
  return GUEST_ERRORS.threw.code;
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
  const clock: CpuClock = { usedMs: 0, sliceStart: undefined, interrupted: false };
  const pending = new Map<number, QuickJSDeferredPromise>();
  let nextId = 1;
  let logChars = 0;
  let done = false;
  const runtime: QuickJSRuntime = module.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(limits.stackBytes);
  runtime.setInterruptHandler(() => {
    if (clock.sliceStart === undefined) return false;
    const over = clock.usedMs + (performance.now() - clock.sliceStart) > limits.cpuTimeMs;
    if (over) clock.interrupted = true;
    return over;
  });
  const context = runtime.newContext();
  let finishFn: QuickJSHandle | undefined;
  let program: QuickJSHandle | undefined;

  const slice = <T>(work: () => T): T => {
    clock.sliceStart = performance.now();
    try {
      return work();
    } finally {
      clock.usedMs += performance.now() - clock.sliceStart;
      clock.sliceStart = undefined;
    }
  };

  const end = (outcome: GuestOutcome) => {
    if (done) return;
    done = true;
    port.postMessage({ type: 'done', outcome });
    try {
      for (const deferred of pending.values()) deferred.dispose();
      finishFn?.dispose();
      program?.dispose();
      context.dispose();
      runtime.dispose();
    } catch {
      // A runtime that cannot be freed is not reused: the worker ends, the pool replaces it.
      process.exit(1);
    }
  };

  const fail = (code: GuestErrorCode, message?: string) =>
    end({
      ok: false,
      code,
      message: message ?? MESSAGES[code]?.(limits) ?? code,
      cpuMs: clock.usedMs,
    });

  const failWith = (handle: QuickJSHandle, fallback: GuestErrorCode = GUEST_ERRORS.threw.code) => {
    const details = errorDetails(context, handle);
    handle.dispose();
    const code = classify(details, clock);
    const known = code === GUEST_ERRORS.threw.code ? fallback : code;
    fail(known, MESSAGES[known] ? undefined : `${details.name}: ${details.message}`);
  };

  const lengthOf = (handle: QuickJSHandle): number =>
    context.getProp(handle, 'length').consume((value) => context.getNumber(value));

  const readString = (handle: QuickJSHandle, max: number): string | undefined => {
    if (context.typeof(handle) !== 'string') return undefined;
    return lengthOf(handle) > max ? undefined : context.getString(handle);
  };

  const answer = (json: string): QuickJSHandle => context.newString(json);

  const hostFunction = context.newFunction('__host', (opHandle, payloadHandle) => {
    const op = opHandle === undefined ? undefined : readString(opHandle, 16);
    const payload =
      payloadHandle === undefined ? undefined : readString(payloadHandle, limits.maxRequestChars);
    const deferred = context.newPromise();
    if (
      op === undefined ||
      !(HOST_OPERATIONS as readonly string[]).includes(op) ||
      payload === undefined
    ) {
      const message =
        payload === undefined && op !== undefined
          ? `a request takes a JSON string of at most ${limits.maxRequestChars} characters`
          : `unknown host operation; use tools.search, tools.describe or tools.call`;
      const failure = { status: 'error', message, code: 'invalid_argument' };
      deferred.resolve(answer(JSON.stringify({ ok: false, failure })));
      return deferred.handle;
    }
    const id = nextId++;
    pending.set(id, deferred);
    port.postMessage({ type: 'request', id, op: op as (typeof HOST_OPERATIONS)[number], payload });
    return deferred.handle;
  });

  const logFunction = context.newFunction('__log', (lineHandle) => {
    if (lineHandle === undefined || logChars >= limits.maxLogChars) return;
    if (context.typeof(lineHandle) !== 'string') return;
    const room = limits.maxLogChars - logChars;
    const length = lengthOf(lineHandle);
    if (length <= room) {
      logChars += length;
      port.postMessage({ type: 'log', line: context.getString(lineHandle) });
      return;
    }
    logChars = limits.maxLogChars;
    const cut = `…(logs cut at ${limits.maxLogChars} characters)`;
    port.postMessage({ type: 'log', line: `${sliceGuestString(lineHandle, room)}${cut}` });
  });

  function sliceGuestString(handle: QuickJSHandle, room: number): string {
    const method = context.getProp(handle, 'slice');
    const room0 = context.newNumber(0);
    const roomEnd = context.newNumber(room);
    const result = context.callFunction(method, handle, room0, roomEnd);
    method.dispose();
    room0.dispose();
    roomEnd.dispose();
    if (result.error) {
      result.error.dispose();
      return '';
    }
    return result.value.consume((value) => context.getString(value));
  }

  const finishValue = (value: QuickJSHandle) => {
    const max = context.newNumber(limits.maxResultChars);
    const result = slice(() => context.callFunction(finishFn!, context.undefined, value, max));
    max.dispose();
    value.dispose();
    if (result.error) return failWith(result.error, GUEST_ERRORS.output.code);
    const { json, chars } = result.value.consume((handle) => context.dump(handle)) as {
      json?: string;
      chars: number;
    };
    end({
      ok: true,
      ...(json === undefined ? {} : { json }),
      resultChars: chars,
      cpuMs: clock.usedMs,
    });
  };

  const drive = () => {
    if (done || program === undefined) return;
    const jobs = slice(() => runtime.executePendingJobs());
    if (jobs.error) return failWith(jobs.error);
    const state = context.getPromiseState(program);
    if (state.type === 'fulfilled') return finishValue(state.value);
    if (state.type === 'rejected') return failWith(state.error);
    if (pending.size === 0) {
      fail(GUEST_ERRORS.stalled.code);
    }
  };

  try {
    const prelude = context.unwrapResult(context.evalCode(GUEST_PRELUDE, 'prelude.js'));
    finishFn = context.unwrapResult(
      context.callFunction(prelude, context.undefined, hostFunction, logFunction),
    );
    prelude.dispose();
    hostFunction.dispose();
    logFunction.dispose();
    const evaluated = slice(() => context.evalCode(wrapProgram(source), 'program.js'));
    if (evaluated.error) {
      const details = errorDetails(context, evaluated.error);
      evaluated.error.dispose();
      const code =
        details.name === 'SyntaxError' ? GUEST_ERRORS.syntax.code : classify(details, clock);
      fail(code, MESSAGES[code] ? undefined : `${details.name}: ${details.message}`);
    } else {
      program = evaluated.value;
      drive();
    }
  } catch (error) {
    fail(GUEST_ERRORS.sandbox.code, `the sandbox failed: ${String(error)}`);
  }

  return {
    reply(message) {
      const deferred = pending.get(message.id);
      if (done || deferred === undefined) return;
      pending.delete(message.id);
      const text = message.ok
        ? `{"ok":true,"value":${message.json}}`
        : JSON.stringify({ ok: false, failure: message.failure });
      try {
        const handle = context.newString(text);
        deferred.resolve(handle);
        handle.dispose();
      } catch {
        return fail(GUEST_ERRORS.memory.code);
      }
      drive();
    },
  };
}
