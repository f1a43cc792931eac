import type { ToolCall, ToolDefinition } from '@tool-search/core';
import { createToolsetRegistry, scopeTools } from '@tool-search/toolsets';
import { describe, expect, it, vi } from 'vitest';
import { coreTools, mcpTools } from './__fixtures__/tools.js';
import { assembleTools } from './assemble.js';
import { handleBridgeCall } from './handle.js';

// The seed's scoping scenario: 12 GitHub tools in `mcp-scoped-gh`, one plugin tool in
// a toolset the session does not enable, and the runtime's core tools.
const scopedGh: ToolDefinition[] = mcpTools
  .filter((tool) => tool.toolset === 'mcp-github')
  .concat(mcpTools.filter((tool) => tool.toolset === 'mcp-slack'))
  .slice(0, 12)
  .map((tool) => ({ ...tool, toolset: 'mcp-scoped-gh' }));
const deployPlugin: ToolDefinition = {
  name: 'deploy_production',
  description: 'Deploy the current build to production servers',
  inputSchema: { type: 'object', properties: { service: { type: 'string' } } },
  source: 'plugin',
  toolset: 'plugin-deploy',
};
const allTools = [
  ...coreTools.map((tool) => ({ ...tool, toolset: 'core' })),
  ...scopedGh,
  deployPlugin,
];
const registry = createToolsetRegistry([
  { name: 'core', description: 'Built-in tools' },
  { name: 'session', includes: ['core', 'mcp-scoped-gh'] },
  { name: 'plugin-deploy', description: 'Deployment plugin' },
]);

function scopedSession() {
  const tools = scopeTools(allTools, { enabledToolsets: ['session'] }, registry);
  return assembleTools({ tools, config: { enabled: 'on' } });
}

describe('assembleTools with @tool-search/toolsets scoping', () => {
  it('holds exactly the 12 scoped tools, and tool_search reports total_available 12', async () => {
    const assembly = scopedSession();
    expect(scopedGh).toHaveLength(12);
    expect(assembly.catalog.names()).toEqual(scopedGh.map((tool) => tool.name));
    const answer = await handleBridgeCall(
      assembly,
      { name: 'tool_search', arguments: { query: 'deploy production' } },
      vi.fn(),
    );
    expect(answer).toMatchObject({ total_available: 12 });
    const matches = (answer as { matches: { name: string }[] }).matches;
    expect(matches.map((match) => match.name)).not.toContain('deploy_production');
  });

  it('never finds the out-of-scope tool, not even by its exact name', async () => {
    const assembly = scopedSession();
    for (const query of ['deploy_production', 'deploy', 'production servers']) {
      const answer = await handleBridgeCall(
        assembly,
        { name: 'tool_search', arguments: { query, limit: 20 } },
        vi.fn(),
      );
      const matches = (answer as { matches: { name: string }[] }).matches;
      expect(matches.map((match) => match.name)).not.toContain('deploy_production');
    }
    const described = await handleBridgeCall(
      assembly,
      { name: 'tool_describe', arguments: { name: 'deploy_production' } },
      vi.fn(),
    );
    expect(JSON.stringify(described)).not.toContain('Deploy the current build');
  });

  it('refuses an out-of-scope call without reaching dispatch, and dispatches the in-scope one', async () => {
    const assembly = scopedSession();
    const dispatch = vi.fn((call: ToolCall) => ({ ran: call.name }));

    const outside = await handleBridgeCall(
      assembly,
      {
        name: 'tool_call',
        arguments: { name: 'deploy_production', arguments: { service: 'api' } },
      },
      dispatch,
    );
    expect(outside).toMatchObject({
      error:
        "'deploy_production' is not available in this session. Use tool_search to find tools you can call.",
      code: 'not_in_session',
    });
    const direct = { name: 'deploy_production', arguments: {} };
    expect(handleBridgeCall(assembly, direct, dispatch)).toBeUndefined();
    expect(
      await handleBridgeCall(assembly, direct, dispatch, { refuseUnknownNames: true }),
    ).toMatchObject({
      error: expect.stringContaining('is not available in this session'),
      code: 'not_in_session',
    });
    expect(dispatch).not.toHaveBeenCalled();

    const inScope = scopedGh.find((tool) => tool.name === 'github_list_commits')!;
    const args = Object.fromEntries((inScope.inputSchema.required ?? []).map((key) => [key, 'x']));
    const inside = await handleBridgeCall(
      assembly,
      { name: 'tool_call', arguments: { name: inScope.name, arguments: args } },
      dispatch,
    );
    expect(inside).toEqual({ ran: 'github_list_commits' });
    expect(dispatch).toHaveBeenCalledTimes(1);
    expect(dispatch.mock.calls[0]![0]).toEqual({ name: 'github_list_commits', arguments: args });
  });
});
