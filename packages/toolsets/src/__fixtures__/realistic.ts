import type { ToolDefinition, ToolSource } from '@tool-search/core';
import type { ToolsetDefinition } from '../toolset-registry.js';

function tool(
  name: string,
  source: ToolSource | undefined,
  toolset: string | undefined,
  description: string,
): ToolDefinition {
  const definition: ToolDefinition = {
    name,
    description,
    inputSchema: { type: 'object', properties: { input: { type: 'string' } } },
  };
  if (source !== undefined) definition.source = source;
  if (toolset !== undefined) definition.toolset = toolset;
  return definition;
}

/**
 * A session's tools: core tools (some only listed by a definition, one with no
 * toolset at all), four MCP servers and a plugin.
 */
export const realisticTools: readonly ToolDefinition[] = Object.freeze([
  tool('read_file', 'core', 'files', 'Read a file from the workspace'),
  tool('write_file', 'core', 'files', 'Write a file in the workspace'),
  tool('edit_file', 'core', undefined, 'Apply an edit to a file (listed by the files toolset)'),
  tool('run_shell', 'core', 'shell', 'Run a shell command'),
  tool('web_fetch', 'core', 'web', 'Fetch a URL'),
  tool('web_search', 'core', undefined, 'Search the web (listed by the web toolset)'),
  tool('todo_write', 'core', undefined, 'Keep a todo list (belongs to no toolset)'),
  tool('github_create_issue', 'mcp', 'mcp-github', 'Create a GitHub issue'),
  tool('github_list_issues', 'mcp', 'mcp-github', 'List GitHub issues'),
  tool('github_create_pull_request', 'mcp', 'mcp-github', 'Open a pull request'),
  tool('slack_post_message', 'mcp', 'mcp-slack', 'Post a Slack message'),
  tool('slack_list_channels', 'mcp', 'mcp-slack', 'List Slack channels'),
  tool('postgres_query', 'mcp', 'mcp-postgres', 'Run a read-only SQL query'),
  tool('linear_create_issue', 'mcp', 'mcp-linear', 'Create a Linear issue'),
  tool('notes_search', 'plugin', 'plugin-notes', 'Search personal notes'),
  tool('notes_export', 'plugin', 'plugin-notes', 'Export notes to a webhook'),
]);

/**
 * Toolset definitions over {@link realisticTools}: core toolsets, nested includes
 * (`everything` -> `dev` -> `core` -> `files`), a diamond (`dev` reaches `files`
 * through `core` and `code-review`), implicit `mcp-*` toolsets and a plugin.
 */
export const realisticDefinitions: readonly ToolsetDefinition[] = Object.freeze([
  { name: 'files', description: 'Workspace files', tools: ['edit_file'] },
  { name: 'shell' },
  { name: 'web', tools: ['web_search'] },
  { name: 'core', description: 'Built-in tools', includes: ['files', 'shell', 'web'] },
  { name: 'code-review', includes: ['mcp-github', 'files'], tools: ['run_shell'] },
  { name: 'dev', includes: ['core', 'code-review', 'mcp-postgres'] },
  { name: 'chat', includes: ['mcp-slack'] },
  { name: 'plugin-notes', description: 'The notes plugin' },
  { name: 'everything', includes: ['dev', 'chat', 'plugin-notes', 'mcp-linear'] },
]);

/** The names of some tools, for readable assertions. */
export function namesOf(tools: readonly { name: string }[]): string[] {
  return tools.map((entry) => entry.name);
}
