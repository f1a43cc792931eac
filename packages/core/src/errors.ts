const MARKER = Symbol.for('@tool-search/core.ToolSearchError');

/**
 * The documented error codes of every `@tool-search/*` package.
 *
 * - `invalid_tool_definition`: a tool definition failed validation (names the tool and the field).
 * - `duplicate_tool_name`: two tools in one list share a name.
 * - `invalid_config`: a configuration value could not be used.
 * - `invalid_argument`: a function was called with an argument it cannot take.
 * - `ranker_failed`: a ranker threw or returned something that breaks the `Ranker` contract.
 * - `unknown_toolset` / `toolset_cycle` / `duplicate_toolset`: toolset registry errors.
 * - `upstream_failed` / `upstream_timeout`: an MCP upstream failed or did not answer.
 * - `guardrail_failed` / `approval_failed`: a policy adapter threw or timed out (dispatch denies).
 * - `aborted`: the operation was cancelled by its `AbortSignal`.
 */
export type ToolSearchErrorCode =
  | 'invalid_tool_definition'
  | 'duplicate_tool_name'
  | 'invalid_config'
  | 'invalid_argument'
  | 'ranker_failed'
  | 'unknown_toolset'
  | 'toolset_cycle'
  | 'duplicate_toolset'
  | 'upstream_failed'
  | 'upstream_timeout'
  | 'guardrail_failed'
  | 'approval_failed'
  | 'aborted'
  | (string & {});

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
  /** A stable, documented code; see {@link ToolSearchErrorCode}. */
  readonly code: ToolSearchErrorCode;

  /**
   * @param code - a documented code
   * @param message - what failed, with which name, and what to do next
   * @param options.cause - the underlying error, if any
   */
  constructor(code: ToolSearchErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ToolSearchError';
    this.code = code;
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
   * @returns a `ToolSearchError`
   */
  static from(error: unknown, code: ToolSearchErrorCode, context: string): ToolSearchError {
    if (ToolSearchError.isInstance(error)) return error;
    return new ToolSearchError(code, `${context}: ${describeError(error)}`, { cause: error });
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
