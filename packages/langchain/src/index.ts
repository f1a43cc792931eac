/**
 * Tool search for LangChain.js and LangGraph: {@link withToolSearch} turns your LangChain
 * tools (and MCP tools of `@langchain/mcp-adapters`) into the model-visible tools plus the
 * bridge (`tool_search`, `tool_describe`, `tool_call`, and `tool_program` with programs),
 * every real call going through one dispatcher of `@tool-search/hooks`.
 * `createInterruptApproval` (LangGraph's `interrupt()`) is at
 * `@tool-search/langchain/langgraph`.
 *
 * @example
 * ```ts
 * import { withToolSearch } from '@tool-search/langchain';
 *
 * const search = withToolSearch(tools, { core: ['read_file'], contextWindow: 128_000 });
 * console.log(search.decision); // { active, reason, deferrableTokens, thresholdTokens }
 * const agent = createAgent({ model, tools: search.tools });
 * ```
 *
 * @packageDocumentation
 */
export type { ToolCallRequestLike, ToolSearchMiddleware } from './agent-middleware.js';
export type {
  CallSuspension,
  LangChainCallContext,
  LangChainDispatchOptions,
} from './call-dispatch.js';
export type { LangChainProgramOptions } from './program.js';
export type { LangChainToolLabels, ToolSearchMetadata } from './tool-definitions.js';
export { toolDefinitionsFromTools } from './tool-definitions.js';
export type {
  LangChainLogger,
  ToolSearchSetup,
  WithToolSearchOptions,
} from './with-tool-search.js';
export { withToolSearch } from './with-tool-search.js';
