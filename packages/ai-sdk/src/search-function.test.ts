import type { ToolDefinition } from '@tool-search/core';
import { createToolsetRegistry } from '@tool-search/toolsets';
import { describe, expect, it } from 'vitest';
import { createToolSearchFunction } from './search-function.js';

const definition = (name: string, toolset: string): ToolDefinition => ({
  name,
  description: `deploy the site with ${name}`,
  inputSchema: { type: 'object' },
  source: 'mcp',
  toolset,
});

const tools = [definition('deploy_site', 'mcp-deploy'), definition('deploy_admin', 'mcp-admin')];
const offered = [
  { name: 'deploy_site', description: 'deploy the site' },
  { name: 'deploy_admin', description: 'deploy the site as admin' },
  { name: 'deploy_unlisted', description: 'deploy the site, unlisted' },
];

describe('createToolSearchFunction', () => {
  it('never returns an offered tool it has no definition for when the scope disables toolsets', async () => {
    const search = createToolSearchFunction({
      tools,
      scope: { disabledToolsets: ['mcp-admin'] },
    });
    expect(await search({ query: 'deploy the site', tools: offered })).toEqual(['deploy_site']);
  });

  it('returns such a tool when the registry places it in a toolset the scope allows', async () => {
    const registry = createToolsetRegistry([{ name: 'extra', tools: ['deploy_unlisted'] }]);
    const search = createToolSearchFunction({
      tools,
      registry,
      scope: { disabledToolsets: ['mcp-admin'] },
    });
    const names = await search({ query: 'deploy the site', tools: offered });
    expect(names.sort()).toEqual(['deploy_site', 'deploy_unlisted']);
    const blocked = createToolSearchFunction({
      tools,
      registry,
      scope: { disabledToolsets: ['mcp-admin', 'extra'] },
    });
    expect(await blocked({ query: 'deploy the site', tools: offered })).toEqual(['deploy_site']);
  });

  it('searches every offered tool without a scope', async () => {
    const search = createToolSearchFunction({ tools });
    const names = await search({ query: 'deploy the site', tools: offered });
    expect(names.sort()).toEqual(['deploy_admin', 'deploy_site', 'deploy_unlisted']);
  });
});
