import type { ToolLoading, ToolSearchConfig } from '@tool-search/core';
import type { UpstreamServerConfig } from './schemas.js';

/**
 * The tool search config with each server's `toolLoading` (or `loading`) added to its
 * `toolsetLoading` as the toolset `mcp-<server>`; a server's own setting wins over an
 * entry for its toolset in the `toolSearch` section.
 *
 * @param toolSearch - the parsed `toolSearch` section
 * @param servers - the parsed `mcpServers`
 * @returns the config, unchanged when no server sets its loading
 * @throws nothing
 */
export function withServerLoading(
  toolSearch: ToolSearchConfig,
  servers: Readonly<Record<string, UpstreamServerConfig>>,
): ToolSearchConfig {
  const loading: Record<string, ToolLoading> = {};
  for (const [name, server] of Object.entries(servers)) {
    const value = server.toolLoading ?? server.loading;
    if (value !== undefined) loading[`mcp-${name}`] = value;
  }
  if (Object.keys(loading).length === 0) return toolSearch;
  return { ...toolSearch, toolsetLoading: { ...toolSearch.toolsetLoading, ...loading } };
}
