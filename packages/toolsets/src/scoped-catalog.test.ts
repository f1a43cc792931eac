import {
  classifyTools,
  createBm25Ranker,
  createCatalog,
  type Ranker,
  type ToolCatalog,
} from '@tool-search/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { outOfScopePluginTool, scopedGhTools } from './__fixtures__/scoped-gh.js';
import { narrowScope } from './narrow-scope.js';
import { type SessionScope, scopeTools } from './session-scope.js';
import { createToolsetRegistry } from './toolset-registry.js';

// The seed's scoping scenario, end to end: registered tools -> scopeTools -> classify
// -> catalog, as the bridge assembles a session.
const registered = [...scopedGhTools, outOfScopePluginTool];
const registry = createToolsetRegistry([
  { name: 'github', includes: ['mcp-scoped-gh'] },
  { name: 'plugin-vault', description: 'The vault plugin' },
]);

function sessionCatalog(scope: SessionScope, ranker?: Ranker): ToolCatalog {
  const { deferrable } = classifyTools(scopeTools(registered, scope, registry));
  return createCatalog(deferrable, ranker ? { ranker } : {});
}

const plugin = outOfScopePluginTool.name;
const scopedNames = scopedGhTools.map((tool) => tool.name);
const rankers: [string, Ranker | undefined][] = [
  ['the default ranker', undefined],
  ["the 'spec' ranker", createBm25Ranker({ preset: 'spec' })],
];

const pluginQueries = [
  plugin,
  plugin.replaceAll('_', ' '),
  outOfScopePluginTool.description!,
  ...outOfScopePluginTool.description!.split(/\s+/),
  'vault',
  'exfiltrate',
  'secrets',
  'webhook_url',
  'include_keys',
  'password',
  'ault_exfil',
  'plugin-vault',
  'plugin',
  '',
  '*',
];

describe('a session scoped to mcp-scoped-gh', () => {
  const scopes: [string, SessionScope][] = [
    ['enabling the implicit mcp-scoped-gh toolset', { enabledToolsets: ['mcp-scoped-gh'] }],
    ['enabling a toolset that includes it', { enabledToolsets: ['github'] }],
    ['disabling the plugin', { disabledToolsets: ['plugin-vault'] }],
    [
      'narrowing an unrestricted parent for a subagent',
      narrowScope({}, { enabledToolsets: ['mcp-scoped-gh'] }, registry),
    ],
    [
      'narrowing a parent restricted to github, where the subagent asks for the plugin',
      narrowScope(
        { enabledToolsets: ['github'] },
        { enabledToolsets: ['mcp-scoped-gh', 'plugin-vault'] },
        registry,
      ),
    ],
    [
      'narrowing a parent that enables both, where the subagent asks for the plugin too',
      narrowScope(
        { enabledToolsets: ['github', 'plugin-vault'] },
        { enabledToolsets: ['mcp-scoped-gh', 'vault'] },
        registry,
      ),
    ],
  ];

  for (const [label, scope] of scopes) {
    for (const [rankerLabel, ranker] of rankers) {
      describe(`${label}, with ${rankerLabel}`, () => {
        const catalog = sessionCatalog(scope, ranker);

        it('holds exactly the 12 tools of mcp-scoped-gh', () => {
          expect(catalog.size).toBe(12);
          expect([...catalog.names()].sort()).toEqual([...scopedNames].sort());
          expect(catalog.get(plugin)).toBeUndefined();
          expect(catalog.has(plugin)).toBe(false);
        });

        it('never finds the plugin tool, by its name, its words or anything else', async () => {
          for (const query of pluginQueries) {
            const hits = await catalog.search(query, { limit: 50 });
            for (const hit of hits) expect(scopedNames).toContain(hit.name);
          }
          await fc.assert(
            fc.asyncProperty(
              fc.oneof(
                fc.string(),
                fc.string({ unit: 'grapheme' }),
                fc.lorem({ maxCount: 6 }),
                fc
                  .subarray(
                    pluginQueries.filter((query) => query.length > 0),
                    { minLength: 1 },
                  )
                  .map((words) => words.join(' ')),
              ),
              fc.integer({ min: 1, max: 50 }),
              async (query, limit) => {
                const hits = await catalog.search(query, { limit });
                for (const hit of hits) expect(hit.name).not.toBe(plugin);
              },
            ),
            { numRuns: 150 },
          );
        });

        it('still finds its own tools', async () => {
          const [best] = await catalog.search('create a github issue', { limit: 3 });
          expect(best?.name).toBe('gh_create_issue');
        });
      });
    }
  }

  it('is a real test: the unscoped catalog finds the plugin tool by name first', async () => {
    const everything = sessionCatalog({});
    expect(everything.size).toBe(13);
    const [best] = await everything.search(plugin, { limit: 5 });
    expect(best?.name).toBe(plugin);
  });
});
