import type { ToolDefinition } from '@tool-search/core';
import { conformanceTools } from '@tool-search/core/testing';

/** Built-in tools of a runtime: never deferred. */
export const coreTools: ToolDefinition[] = [
  {
    name: 'bash',
    description: 'Run a shell command in the workspace',
    inputSchema: {
      type: 'object',
      properties: { command: { type: 'string' } },
      required: ['command'],
    },
    source: 'core',
  },
  {
    name: 'edit_file',
    description: 'Replace a string in a file of the workspace',
    inputSchema: {
      type: 'object',
      properties: { path: { type: 'string' }, old: { type: 'string' }, new: { type: 'string' } },
      required: ['path', 'old', 'new'],
    },
    source: 'core',
  },
];

/** GitHub and Slack MCP tools (17), recorded from the published servers. */
export const mcpTools: ToolDefinition[] = conformanceTools.filter(
  (tool) => tool.toolset === 'mcp-github' || tool.toolset === 'mcp-slack',
);

/** Core tools first, then MCP tools: a typical session. */
export const sessionTools: ToolDefinition[] = [...coreTools, ...mcpTools];

/** `enabled: 'on'`: activates whenever anything is deferrable. */
export const forcedOn = { enabled: 'on' } as const;

/** A synthetic MCP tool with a padded description, to reach a token budget. */
export function paddedTool(
  index: number,
  descriptionChars = 400,
  toolset = 'mcp-bulk',
): ToolDefinition {
  return {
    name: `bulk_tool_${index}`,
    description:
      `Bulk tool number ${index}. ${'lorem ipsum '.repeat(Math.ceil(descriptionChars / 12))}`.slice(
        0,
        descriptionChars,
      ),
    inputSchema: { type: 'object', properties: { value: { type: 'string' } } },
    source: 'mcp',
    toolset,
  };
}
