// The two host functions a program's context holds: the raw request function (`__host`,
// which the prelude's `tools` wraps) and the log function. Both take anything a hostile
// program passes and check it before the host sees it.
import type { QuickJSHandle } from 'quickjs-emscripten';
import type { GuestState } from './guest-state.js';
import { HOST_OPERATIONS, type HostOperation } from './protocol.js';

function lengthOf(state: GuestState, handle: QuickJSHandle): number {
  return state.context.getProp(handle, 'length').consume((value) => state.context.getNumber(value));
}

// A guest string no longer than `max`, read only after its length is known.
function readString(state: GuestState, handle: QuickJSHandle | undefined, max: number) {
  if (handle === undefined || state.context.typeof(handle) !== 'string') return undefined;
  return lengthOf(state, handle) > max ? undefined : state.context.getString(handle);
}

function sliceGuestString(state: GuestState, handle: QuickJSHandle, length: number): string {
  const { context } = state;
  const method = context.getProp(handle, 'slice');
  const from = context.newNumber(0);
  const to = context.newNumber(length);
  const result = context.callFunction(method, handle, from, to);
  method.dispose();
  from.dispose();
  to.dispose();
  if (result.error) {
    result.error.dispose();
    return '';
  }
  return result.value.consume((value) => context.getString(value));
}

// Why the worker answers a request itself instead of forwarding it: malformed, or past
// every request the host's budgets allow.
function refuseRequest(state: GuestState, op: string | undefined, payload: string | undefined) {
  const { limits } = state;
  if (op === undefined || !(HOST_OPERATIONS as readonly string[]).includes(op)) {
    const message = 'unknown host operation; use tools.search, tools.describe or tools.call';
    return { status: 'error', message, code: 'invalid_argument' };
  }
  if (payload === undefined) {
    const message = `a request takes a JSON string of at most ${limits.maxRequestChars} characters`;
    return { status: 'error', message, code: 'invalid_argument' };
  }
  if (state.nextId > limits.maxRequests) {
    const message = `the program made more than ${limits.maxRequests} requests (limits.maxCalls and limits.maxLookups)`;
    return { status: 'error', message, code: 'program_budget_spent' };
  }
  return undefined;
}

/**
 * The raw request function: `__host(op, payloadJson)` answers a promise of the host's JSON
 * answer. A malformed request is answered at once with an error the program can read.
 */
export function createHostFunction(state: GuestState): QuickJSHandle {
  const { context, limits } = state;
  return context.newFunction('__host', (opHandle, payloadHandle) => {
    const op = readString(state, opHandle, 16);
    const payload = readString(state, payloadHandle, limits.maxRequestChars);
    const deferred = context.newPromise();
    const refusal = refuseRequest(state, op, payload);
    if (refusal !== undefined) {
      const answer = context.newString(JSON.stringify({ ok: false, failure: refusal }));
      deferred.resolve(answer);
      answer.dispose();
      return deferred.handle;
    }
    const id = state.nextId++;
    state.pending.set(id, deferred);
    state.port.postMessage({ type: 'request', id, op: op as HostOperation, payload: payload! });
    return deferred.handle;
  });
}

/** The log function: lines go to the host until `maxLogChars`, then one cut marker. */
export function createLogFunction(state: GuestState): QuickJSHandle {
  const { context, limits } = state;
  return context.newFunction('__log', (lineHandle) => {
    if (lineHandle === undefined || state.logChars >= limits.maxLogChars) return;
    if (context.typeof(lineHandle) !== 'string') return;
    const room = limits.maxLogChars - state.logChars;
    const length = lengthOf(state, lineHandle);
    if (length <= room) {
      state.logChars += length;
      state.port.postMessage({ type: 'log', line: context.getString(lineHandle) });
      return;
    }
    state.logChars = limits.maxLogChars;
    const cut = `…(logs cut at ${limits.maxLogChars} characters)`;
    state.port.postMessage({
      type: 'log',
      line: `${sliceGuestString(state, lineHandle, room)}${cut}`,
    });
  });
}
