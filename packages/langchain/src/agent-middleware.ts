import type { StructuredToolInterface } from '@langchain/core/tools';

/** The fields of langchain's tool call request that the middleware reads. */
export interface ToolCallRequestLike {
  toolCall: { name: string };
  tool?: unknown;
}

/**
 * A langchain `createAgent` middleware (`middleware: [search.middleware]`): a tool call
 * whose name the agent does not hold is answered by the setup's fallback tools instead of
 * langchain's "tool not found": a deferred tool called by its own name goes through the
 * bridge's checks and the setup's dispatcher as `tool_call` would, and, while tool search is
 * inactive, a bridge tool answers with the reason. The model is never shown those tools.
 * Built without importing `langchain`: it is the object `createMiddleware` makes.
 */
export interface ToolSearchMiddleware {
  readonly name: string;
  /** Serves a name the agent does not hold from the fallback tools; any other call as it is. */
  wrapToolCall<Q extends ToolCallRequestLike, R>(request: Q, handler: (request: Q) => R): R;
}

// langchain's brand of a middleware object (`MIDDLEWARE_BRAND`), a registered symbol.
const MIDDLEWARE_BRAND = Symbol.for('AgentMiddleware');

/**
 * The middleware of a setup over its fallback tools.
 *
 * @param fallbackTools - the setup's fallback tools
 * @returns the middleware
 * @throws nothing
 */
export function createToolSearchMiddleware(
  fallbackTools: readonly StructuredToolInterface[],
): ToolSearchMiddleware {
  const byName = new Map(fallbackTools.map((tool) => [tool.name, tool]));
  return {
    [MIDDLEWARE_BRAND]: true,
    name: 'ToolSearch',
    wrapToolCall(request, handler) {
      const fallback = request.tool === undefined ? byName.get(request.toolCall.name) : undefined;
      return handler(fallback === undefined ? request : { ...request, tool: fallback });
    },
  } as ToolSearchMiddleware;
}
