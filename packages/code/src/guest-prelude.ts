// The JavaScript a program's context runs before the program: the `tools` object over
// the raw host function, `console`, and the function that turns the return value into
// JSON. It runs inside the interpreter, never in Node; it captures JSON and the host
// functions first, so a program that replaces globals cannot change how they behave.

/**
 * A function expression, evaluated once per context and called with the raw host
 * function and the log function; it answers the `finish` function the worker calls on
 * the program's return value.
 */
export const GUEST_PRELUDE = `(function (host, log) {
  'use strict';
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const freeze = Object.freeze;
  class ToolCallError extends Error {
    constructor(failure) {
      super(String(failure && failure.message));
      this.name = 'ToolCallError';
      this.status = failure && failure.status;
      this.reason = String(failure && failure.message);
      if (failure && failure.code !== undefined) this.code = failure.code;
      if (failure && failure.by !== undefined) this.deniedBy = failure.by;
    }
  }
  const request = (op, payload) =>
    host(op, stringify(payload === undefined ? null : payload) ?? 'null').then((text) => {
      const answer = parse(text);
      if (answer.ok) return answer.value;
      throw new ToolCallError(answer.failure);
    });
  const call = (name, args) => request('call', { name, arguments: args === undefined ? {} : args });
  const methods = freeze({
    search: (query, options) => request('search', { query, ...(options || {}) }),
    describe: (name) => request('describe', { name }),
    call,
  });
  // tools.<name>(args) calls the tool of that name: the typed per-tool functions that
  // tools.describe(name) declares.
  const tools = new Proxy(methods, {
    get(target, key) {
      if (typeof key !== 'string' || key === 'then') return undefined;
      if (Object.prototype.hasOwnProperty.call(target, key)) return target[key];
      return (args) => call(key, args);
    },
  });
  const show = (value) => {
    if (typeof value === 'string') return value;
    try {
      const text = stringify(value);
      return text === undefined ? String(value) : text;
    } catch (error) {
      return String(value);
    }
  };
  const logger = (level) => (...parts) => log(level + parts.map(show).join(' '));
  const console = freeze({
    log: logger(''),
    info: logger(''),
    debug: logger(''),
    warn: logger('warn: '),
    error: logger('error: '),
  });
  // Shared memory means nothing without threads; leave no trace of it.
  delete globalThis.SharedArrayBuffer;
  const fixed = { enumerable: false, writable: false, configurable: false };
  Object.defineProperty(globalThis, 'tools', { ...fixed, value: tools });
  Object.defineProperty(globalThis, 'console', { ...fixed, value: console });
  Object.defineProperty(globalThis, 'ToolCallError', { ...fixed, value: ToolCallError });
  Object.defineProperty(globalThis, '__host', { ...fixed, value: host });
  return function finish(value, max) {
    if (value === undefined) return { chars: 0 };
    const json = stringify(value);
    if (json === undefined) return { chars: 0 };
    return { json: json.length > max ? json.slice(0, max) : json, chars: json.length };
  };
})`;

/**
 * The program's source inside the function that runs it: an async function body, so
 * that it may `await` and `return`.
 *
 * @param source - the program's source
 * @returns the code to evaluate
 * @throws nothing
 */
export function wrapProgram(source: string): string {
  return `(async () => {\n${source}\n})()`;
}
