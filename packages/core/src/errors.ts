const MARKER = Symbol.for('@tool-search/core.ToolSearchError');

/**
 * The error codes of `@tool-search/core`, and of the call outcomes every dispatcher
 * reports (`@tool-search/hooks`, the AI SDK adapter, the providers): the `code` of a
 * {@link ToolSearchError} raised below the composing packages, and of a dispatcher
 * `DispatchError`. The list is closed: a code not on it is a bug, and a test scans the
 * sources for code literals that are on no package's list. Details (which tool, which
 * file, which limit) ride in {@link ToolSearchError.data}, never in the code.
 *
 * Other packages declare their own closed lists and register them with
 * {@link ToolSearchErrorCodeRegistry} (e.g. `MCP_ERROR_CODES` of `@tool-search/mcp`:
 * `upstream_timeout`, `gateway_failed`, ...); core names none of them. Every code of
 * every package, with its meaning and what to do, is listed in `docs/guides/errors.md`.
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
 * - `unknown_tool`: a name that no tool of the list has (core's tool name map, the mcp
 *   pool). List the tools again.
 * - `ranker_failed`: a ranker threw or broke the `Ranker` contract (core's catalog and
 *   embedding ranker). `data.ranker` names it; fix the ranker or its embed function.
 * - `unknown_toolset`, `duplicate_toolset`, `toolset_cycle`: the toolset registry
 *   (toolsets) met a name it does not know, a name defined twice, or toolsets that
 *   include each other. `data.toolset` names it; fix the toolset definitions.
 *
 * Outcomes of a call (in a `DispatchResult` error):
 * - `timeout`: a dispatcher step (guardrail, hook, approval) ran past its time limit;
 *   the step's `AbortSignal` aborts with this error (hooks). `data.timeoutMs` is the
 *   limit. The dispatcher then denies (guardrail, approval) or ignores (hook).
 * - `tool_timeout`: a tool did not finish within the dispatcher's `execute` timeout
 *   (hooks). `data.tool` and `data.timeoutMs`. Retry with less work, or raise the limit.
 * - `tool_failed`: a tool threw something that is not a `ToolSearchError` (hooks, ai-sdk).
 * - `tool_lookup_failed`: the dispatcher's `resolveTool` threw; the tool was not called.
 * - `dispatch_failed`: a bug in the dispatcher itself was caught; report it.
 *
 * Loading:
 * - `module_unavailable`: a library core loads on first use (the English model, the
 *   related-words table) could not be loaded, or is still being imported on a runtime
 *   without a synchronous loader (retry once the module has loaded). `data.path` names the
 *   module.
 *
 * `guardrail_failed` and `approval_failed` were once listed but never raised: a
 * guardrail or approval that throws or times out is a `denied` result, not an error.
 */
export const TOOL_SEARCH_ERROR_CODES = [
  'invalid_argument',
  'invalid_config',
  'invalid_tool_definition',
  'duplicate_tool_name',
  'unknown_tool',
  'ranker_failed',
  'unknown_toolset',
  'duplicate_toolset',
  'toolset_cycle',
  'timeout',
  'tool_timeout',
  'tool_failed',
  'tool_lookup_failed',
  'dispatch_failed',
  'module_unavailable',
] as const;

/** One of core's {@link TOOL_SEARCH_ERROR_CODES}. */
export type CoreErrorCode = (typeof TOOL_SEARCH_ERROR_CODES)[number];

/**
 * The codes other packages add to {@link ToolSearchErrorCode}, by module augmentation of
 * `@tool-search/core` with their own closed list (keys are the codes, values `true`):
 *
 * ```ts
 * export const MCP_ERROR_CODES = ['upstream_timeout', 'gateway_failed'] as const;
 * declare module '@tool-search/core' {
 *   interface ToolSearchErrorCodeRegistry extends Record<(typeof MCP_ERROR_CODES)[number], true> {}
 * }
 * ```
 *
 * Core registers nothing here; a program sees the codes of the packages it imports.
 * Pair it with {@link defineErrorCodes} for the runtime check of the same list.
 */
// biome-ignore lint/suspicious/noEmptyInterface: augmented by the packages that register codes
export interface ToolSearchErrorCodeRegistry {}

/**
 * The `code` of a {@link ToolSearchError}: one of core's {@link TOOL_SEARCH_ERROR_CODES}
 * or a code a package registered in {@link ToolSearchErrorCodeRegistry}. Every one is
 * listed, with its meaning and what to do, in `docs/guides/errors.md`.
 */
export type ToolSearchErrorCode = CoreErrorCode | keyof ToolSearchErrorCodeRegistry;

const CODES: ReadonlySet<string> = new Set(TOOL_SEARCH_ERROR_CODES);

/**
 * Whether a value is one of core's {@link TOOL_SEARCH_ERROR_CODES}. A package that
 * registers codes checks its own list with the guard {@link defineErrorCodes} returns.
 *
 * @param value - any value
 * @returns true when `value` is one of core's codes
 * @throws nothing
 */
export function isToolSearchErrorCode(value: unknown): value is CoreErrorCode {
  return typeof value === 'string' && CODES.has(value);
}

/** A package's closed list of error codes, as {@link defineErrorCodes} returns it. */
export interface ErrorCodeList<Code extends string> {
  /** The codes, in the order given. */
  readonly codes: readonly Code[];
  /** Whether a value (e.g. a code read off the wire) is one of these codes. */
  is(value: unknown): value is Code;
}

/**
 * Declares a package's closed list of error codes: the typed identity of the list, plus
 * its runtime guard. The codes must be registered in {@link ToolSearchErrorCodeRegistry}
 * (module augmentation, see there), so a code on the list and a code the types accept
 * cannot drift apart; none may be one of core's codes.
 *
 * @example
 * ```ts
 * export const MCP_ERROR_CODES = ['upstream_timeout', 'gateway_failed'] as const;
 * export type McpErrorCode = (typeof MCP_ERROR_CODES)[number];
 * declare module '@tool-search/core' {
 *   interface ToolSearchErrorCodeRegistry extends Record<McpErrorCode, true> {}
 * }
 * export const mcpErrorCodes = defineErrorCodes(MCP_ERROR_CODES);
 * mcpErrorCodes.is('gateway_failed'); // true
 * ```
 *
 * @param codes - the package's codes, snake_case
 * @returns the list and its guard
 * @throws {@link ToolSearchError} `invalid_argument` when a code is one of core's or is listed twice
 */
export function defineErrorCodes<const Code extends Exclude<ToolSearchErrorCode, CoreErrorCode>>(
  codes: readonly Code[],
): ErrorCodeList<Code> {
  const set = new Set<string>();
  for (const code of codes) {
    if (CODES.has(code) || set.has(code)) {
      throw new ToolSearchError(
        'invalid_argument',
        `Error code '${code}' is already listed; give each code one list.`,
      );
    }
    set.add(code);
  }
  return {
    codes: Object.freeze([...codes]),
    is: (value: unknown): value is Code => typeof value === 'string' && set.has(value),
  };
}

/**
 * The structured details of a {@link ToolSearchError}: read them here, never parse
 * them out of the message. Every field is optional; which ones are set depends on the
 * code (see `docs/guides/errors.md`).
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
  /** A stable code from a closed list; see {@link ToolSearchErrorCode}. */
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
