import type { ToolDefinition } from '@tool-search/core';

/**
 * The name a tool is grouped under in answers and in the `tool_search` description.
 *
 * @param tool - a deferred tool
 * @returns its toolset (e.g. `mcp-github`), else its source, else `other`
 * @throws nothing
 */
export function sourceName(tool: ToolDefinition): string {
  return tool.toolset ?? tool.source ?? 'other';
}
