/**
 * The tools the examples share: one core tool and a few MCP tools from two servers,
 * as a runtime would hold them after listing its MCP servers.
 */
import type { ToolDefinition } from '@tool-search/core';

/** A JSON Schema for an object whose properties are all required strings. */
function strings(...names: string[]): ToolDefinition['inputSchema'] {
  return {
    type: 'object',
    properties: Object.fromEntries(names.map((name) => [name, { type: 'string' }])),
    required: names,
  };
}

// #region tools
export const tools: ToolDefinition[] = [
  {
    name: 'read_file',
    description: 'Read a text file from the workspace.',
    inputSchema: strings('path'),
    source: 'core',
    toolset: 'files',
  },
  {
    name: 'github_create_issue',
    description: 'Create a new issue in a GitHub repository.',
    inputSchema: strings('repo', 'title', 'body'),
    source: 'mcp',
    toolset: 'mcp-github',
  },
  // ... two more GitHub tools and slack_post_message (toolset mcp-slack) ...
  // #endregion tools
  {
    name: 'github_list_pull_requests',
    description: 'List the open pull requests of a GitHub repository.',
    inputSchema: strings('repo'),
    source: 'mcp',
    toolset: 'mcp-github',
    annotations: { readOnlyHint: true },
  },
  {
    name: 'github_merge_pull_request',
    description: 'Merge a pull request.',
    inputSchema: strings('repo', 'number'),
    source: 'mcp',
    toolset: 'mcp-github',
    annotations: { destructiveHint: true },
  },
  {
    name: 'slack_post_message',
    description: 'Post a message to a Slack channel.',
    inputSchema: strings('channel', 'text'),
    source: 'mcp',
    toolset: 'mcp-slack',
  },
];
