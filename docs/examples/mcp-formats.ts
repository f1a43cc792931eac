/**
 * MCP tools in and out: a `tools/list` answer becomes ToolDefinitions (with their
 * server's toolset), and an assembly becomes a `tools/list` answer again.
 */
import { strict as assert } from 'node:assert';
import { assembleTools } from '@tool-search/bridge';
import {
  fromMcpTool,
  type McpTool,
  type ToolDefinition,
  toMcpTool,
  validateToolDefinitions,
} from '@tool-search/core';

// #region mcp
// What an MCP server's `tools/list` returned (server "github").
const listed: McpTool[] = [
  {
    name: 'create_issue',
    description: 'Create a new issue in a GitHub repository.',
    inputSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
  },
  {
    name: 'get_me',
    description: 'Who am I?',
    inputSchema: { type: 'object' },
    _meta: { 'anthropic/alwaysLoad': true }, // pinned by the server: never deferred
  },
];
// Tool metadata from a server is untrusted: validate before use.
const { tools: upstream, errors } = validateToolDefinitions(
  listed.map((tool) => fromMcpTool(tool, { server: 'github' })),
);
const builtIn: ToolDefinition = {
  name: 'read_file',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
  source: 'core',
};
const assembly = assembleTools({ tools: [builtIn, ...upstream], config: { enabled: 'on' } });
// What a gateway answers to its own client's `tools/list`.
const served = assembly.tools.map(toMcpTool);
// #endregion mcp

assert.equal(errors.length, 0);
assert.equal(upstream[0]?.toolset, 'mcp-github');
assert.deepEqual(
  served.map((tool) => tool.name),
  ['read_file', 'get_me', 'tool_search', 'tool_describe', 'tool_call'],
);
