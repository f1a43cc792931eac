const MARKER = Symbol.for('@tool-search/core.ToolSearchError');

/**
 * Every error code of the `@tool-search/*` packages: the `code` of a
 * {@link ToolSearchError}, of a dispatcher `DispatchError`, and of an MCP error result
 * (`_meta["tool-search/error"]`). The list is closed: a code not on it is a bug, and a
 * test scans the sources for code literals that are not. Details (which tool, which
 * file, which limit) ride in {@link ToolSearchError.data}, never in the code.
 *
 * Thrown by functions (a caller's mistake or a broken plugin):
 * - `invalid_argument`: a function or factory got an argument it cannot take (a
 *   non-function callback, an unknown preset, a bad number), or the dispatcher got a
 *   malformed call. Raised by every package. Fix the argument the message names.
 * - `invalid_config`: a configuration value or file could not be used (gateway config,
 *   HTTP options, toolsets, the review file), or an optional package a setting needs is
 *   missing. Raised by core and mcp; the app exits 2. `data.path` names the file,
 *   `data.field` the key. Fix the config.
 * - `invalid_tool_definition`: a tool definition failed validation. Raised by core's
 *   `validateToolDefinition`; the pool and bridge leave the tool out. `data.tool` names it.
 * - `duplicate_tool_name`: two tools in one list share a name. Raised by core
 *   (`createCatalog`, `validateToolDefinitions`) and the bridge. `data.tool` names it;
 *   rename one (e.g. prefix it with its server).
 * - `ranker_failed`: a ranker threw or broke the `Ranker` contract (core's catalog and
 *   embedding ranker). `data.ranker` names it; fix the ranker or its embed function.
 * - `unknown_toolset`, `duplicate_toolset`, `toolset_cycle`: the toolset registry
 *   (toolsets) met a name it does not know, a name defined twice, or toolsets that
 *   include each other. `data.toolset` names it; fix the toolset definitions.
 *
 * Outcomes of a call (in a `DispatchResult` error, or an error result to the model):
 * - `timeout`: a dispatcher step (guardrail, hook, approval) ran past its time limit;
 *   the step's `AbortSignal` aborts with this error (hooks). `data.timeoutMs` is the
 *   limit. The dispatcher then denies (guardrail, approval) or ignores (hook).
 * - `tool_timeout`: a tool did not finish within the dispatcher's `execute` timeout
 *   (hooks). `data.tool` and `data.timeoutMs`. Retry with less work, or raise the limit.
 * - `tool_failed`: a tool threw something that is not a `ToolSearchError` (hooks).
 * - `tool_lookup_failed`: the dispatcher's `resolveTool` threw; the tool was not called.
 * - `dispatch_failed`: a bug in the dispatcher itself was caught; report it.
 * - `denied`: a guardrail, a `beforeCall` hook or the approval refused the call (mcp
 *   gateway; a guardrail or approval that throws or times out denies: they fail closed).
 * - `cancelled`: the caller cancelled the call while the dispatcher ran it (mcp gateway).
 * - `aborted`: the call was cancelled by its `AbortSignal` on the way to, or while
 *   waiting for, an upstream (mcp pool).
 * - `unknown_tool`: the pool has no tool of that name (mcp pool). List the tools again.
 * - `not_in_session`: the tool is not visible in this session (mcp gateway). Search for
 *   it or list the tools again.
 * - `tool_changed`: the tool's definition changed hands while the call waited (mcp
 *   gateway). List the tools again, then call.
 * - `upstream_unavailable`: the upstream server is down or reconnecting; the tool was
 *   not called (mcp pool). Try again in a few seconds.
 * - `upstream_timeout`: the upstream did not answer in time, or the call waited too
 *   long in its queue (mcp pool), or a `tool_call` batch passed its overall deadline
 *   before the call finished or started (mcp gateway, `batchDeadlineMs`). Try again, or
 *   with less work per call.
 * - `upstream_failed`: the upstream closed the connection, answered a malformed
 *   result or failed the call (mcp pool).
 * - `gateway_failed`: the gateway itself could not serialise a result (a hook put a
 *   `BigInt` or a cycle in it); the tool may have run (mcp gateway). A fault of the
 *   gateway or its hooks, never of the upstream server.
 * - `store_unavailable`: the gateway's shared store (Redis) did not answer; what needs
 *   it (a session on another replica, an approval, the audit trail) failed closed (mcp
 *   gateway). The gateway reconnects on its own: try again in a few seconds.
 *
 * `guardrail_failed` and `approval_failed` were once listed but never raised: a
 * guardrail or approval that throws or times out is a `denied` result, not an error.
 */
export const TOOL_SEARCH_ERROR_CODES = [
  'invalid_argument',
  'invalid_config',
  'invalid_tool_definition',
  'duplicate_tool_name',
  'ranker_failed',
  'unknown_toolset',
  'duplicate_toolset',
  'toolset_cycle',
  'timeout',
  'tool_timeout',
  'tool_failed',
  'tool_lookup_failed',
  'dispatch_failed',
  'denied',
  'cancelled',
  'aborted',
  'unknown_tool',
  'not_in_session',
  'tool_changed',
  'upstream_unavailable',
  'upstream_timeout',
  'upstream_failed',
  'gateway_failed',
  'store_unavailable',
] as const;

/** One of {@link TOOL_SEARCH_ERROR_CODES}: what each means, who raises it and what to do is documented there. */
export type ToolSearchErrorCode = (typeof TOOL_SEARCH_ERROR_CODES)[number];

const CODES: ReadonlySet<string> = new Set(TOOL_SEARCH_ERROR_CODES);

/**
 * Whether a value is one of {@link TOOL_SEARCH_ERROR_CODES}, e.g. the
 * `_meta["tool-search/error"]` of a result read off the wire.
 *
 * @param value - any value
 * @returns true when `value` is a listed code
 * @throws nothing
 */
export function isToolSearchErrorCode(value: unknown): value is ToolSearchErrorCode {
  return typeof value === 'string' && CODES.has(value);
}

/**
 * The structured details of a {@link ToolSearchError}: read them here, never parse
 * them out of the message. Every field is optional; which ones are set depends on the
 * code (see {@link TOOL_SEARCH_ERROR_CODES}).
 */
export interface ToolSearchErrorData {
  /** The tool concerned, by the name it was given (it may be an invalid name). */
  readonly tool?: string;
  /** The upstream MCP server concerned, by its config name. */
  readonly server?: string;
  /** The toolset concerned. */
  readonly toolset?: string;
  /** The ranker concerned, by its `id`. */
  readonly ranker?: string;
  /** The file concerned: a config file, a review file. */
  readonly path?: string;
  /** Where in the input: a dotted key such as `mcpServers.memory.command`, or an option name. */
  readonly field?: string;
  /** The time limit that ran out, in milliseconds. */
  readonly timeoutMs?: number;
}

/**
 * The one error class of `@tool-search/*`. It carries a documented string `code`
 * and an ES2022 `cause`. Use {@link ToolSearchError.isInstance} rather than
 * `instanceof`: it works across two installed copies of the package.
 *
 * @example
 * ```ts
 * try {
 *   validateToolDefinition(raw);
 * } catch (error) {
 *   if (ToolSearchError.isInstance(error) && error.code === 'invalid_tool_definition') {
 *     console.warn(error.message);
 *   }
 * }
 * ```
 */
export class ToolSearchError extends Error {
  /** A stable, documented code; see {@link TOOL_SEARCH_ERROR_CODES}. */
  readonly code: ToolSearchErrorCode;

  /** Structured details (which tool, file, limit), when the raiser had them. */
  readonly data?: ToolSearchErrorData;

  /**
   * @param code - a documented code
   * @param message - what failed, with which name, and what to do next
   * @param options.cause - the underlying error, if any
   * @param options.data - structured details; see {@link ToolSearchErrorData}
   */
  constructor(
    code: ToolSearchErrorCode,
    message: string,
    options?: { cause?: unknown; data?: ToolSearchErrorData },
  ) {
    super(
      message,
      options !== undefined && 'cause' in options ? { cause: options.cause } : undefined,
    );
    this.name = 'ToolSearchError';
    this.code = code;
    if (options?.data !== undefined) this.data = Object.freeze({ ...options.data });
    Object.defineProperty(this, MARKER, { value: true });
  }

  /**
   * Whether `error` is a `ToolSearchError`, from this or any other installed copy.
   *
   * @param error - any value
   * @returns true when `error` carries the `ToolSearchError` marker
   */
  static isInstance(error: unknown): error is ToolSearchError {
    return (
      typeof error === 'object' &&
      error !== null &&
      (error as Record<symbol, unknown>)[MARKER] === true
    );
  }

  /**
   * Turns any thrown value into a `ToolSearchError`, keeping it as the `cause`.
   * A `ToolSearchError` is returned unchanged.
   *
   * @param error - the thrown value
   * @param code - the code to use when `error` is not already a `ToolSearchError`
   * @param context - a prefix for the message, e.g. `Ranker 'bm25' failed`
   * @param data - the details of the new error (a `ToolSearchError` keeps its own)
   * @returns a `ToolSearchError`
   * @throws nothing
   */
  static from(
    error: unknown,
    code: ToolSearchErrorCode,
    context: string,
    data?: ToolSearchErrorData,
  ): ToolSearchError {
    if (ToolSearchError.isInstance(error)) return error;
    return new ToolSearchError(code, `${context}: ${describeError(error)}`, {
      cause: error,
      ...(data === undefined ? {} : { data }),
    });
  }
}

/**
 * A one-line description of any thrown value, safe for logs and model-facing text.
 *
 * @param error - any value
 * @returns its message, or a short rendering of the value
 */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  try {
    const text = JSON.stringify(error);
    return text === undefined ? String(error) : text.slice(0, 500);
  } catch {
    return String(error);
  }
}
