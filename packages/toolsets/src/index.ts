/**
 * Session-scoped toolsets for tool search: a registry of toolset definitions
 * ({@link createToolsetRegistry}), the tools a session may see ({@link scopeTools}),
 * a subagent's scope that is never wider than its parent's ({@link narrowScope}),
 * and a cache key per scope and registry ({@link scopeKey}). MCP servers' tools belong
 * to the toolset `mcp-<server>` ({@link mcpToolsetName}).
 *
 * @example
 * ```ts
 * import { createToolsetRegistry, narrowScope, scopeTools } from '@tool-search/toolsets';
 *
 * const registry = createToolsetRegistry([{ name: 'dev', includes: ['mcp-github'] }]);
 * const sessionTools = scopeTools(tools, { enabledToolsets: ['dev'] }, registry);
 * const subagent = narrowScope({ enabledToolsets: ['dev'] }, { enabledToolsets: ['dev', 'ops'] });
 * ```
 *
 * @packageDocumentation
 */
export type { NarrowedScope, ScopeRefusal, ScopeRefusalReason } from './narrow-scope.js';
export { narrowScope } from './narrow-scope.js';
export type { SessionScope } from './session-scope.js';
export { scopeKey, scopeTools } from './session-scope.js';
export type { ToolsetDefinition, ToolsetRegistry } from './toolset-registry.js';
export {
  createToolsetRegistry,
  isMcpToolsetName,
  MCP_TOOLSET_PREFIX,
  mcpToolsetName,
} from './toolset-registry.js';
