// The words of per-toolset loading, apart from the plan that applies them, so that the
// config can name them without importing the activation plan.

/**
 * How a toolset's tools (an MCP server's: toolset `mcp-<server>`) are loaded:
 * - `eager`: always in the model's tool list, never deferred (like a pin on each);
 * - `deferred`: behind the bridge whenever tool search is not `off`, even below the threshold;
 * - `auto`: the threshold decides (the default).
 */
export type ToolLoading = 'eager' | 'deferred' | 'auto';

/** The three {@link ToolLoading} values. */
export const TOOL_LOADINGS: readonly ToolLoading[] = Object.freeze(['eager', 'deferred', 'auto']);

/** Loading by toolset name, e.g. `{ 'mcp-github': 'deferred', 'mcp-fs': 'eager' }`. */
export type ToolsetLoading = Readonly<Record<string, ToolLoading>>;

/**
 * Whether a value is one of {@link TOOL_LOADINGS}.
 *
 * @param value - any value
 * @returns true for `'eager'`, `'deferred'` and `'auto'`
 * @throws nothing
 */
export function isToolLoading(value: unknown): value is ToolLoading {
  return value === 'eager' || value === 'deferred' || value === 'auto';
}
