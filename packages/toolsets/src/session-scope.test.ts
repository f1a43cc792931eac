import type { ToolDefinition } from '@tool-search/core';
import { describe, expect, it } from 'vitest';
import { namesOf, realisticDefinitions, realisticTools } from './__fixtures__/realistic.js';
import { type SessionScope, scopeKey, scopeTools } from './session-scope.js';
import { createToolsetRegistry, type ToolsetRegistry } from './toolset-registry.js';

const registry = createToolsetRegistry(realisticDefinitions);
const all = namesOf(realisticTools);
const scoped = (scope: SessionScope) => namesOf(scopeTools(realisticTools, scope, registry));
const scopedWithoutRegistry = (scope: SessionScope) => namesOf(scopeTools(realisticTools, scope));

describe('scopeTools', () => {
  describe('a scope without enabledToolsets (unrestricted)', () => {
    it('admits every tool, including tools that belong to no toolset', () => {
      expect(scoped({})).toEqual(all);
      expect(scoped({ disabledToolsets: [] })).toEqual(all);
      expect(scoped({ enabledToolsets: undefined })).toEqual(all);
    });

    it('admits every tool except those a disabled toolset holds', () => {
      expect(scoped({ disabledToolsets: ['mcp-slack', 'plugin-notes'] })).toEqual(
        all.filter((name) => !name.startsWith('slack_') && !name.startsWith('notes_')),
      );
    });

    it('disables what a disabled toolset includes and lists, transitively', () => {
      expect(scoped({ disabledToolsets: ['core'] })).toEqual([
        'todo_write',
        'github_create_issue',
        'github_list_issues',
        'github_create_pull_request',
        'slack_post_message',
        'slack_list_channels',
        'postgres_query',
        'linear_create_issue',
        'notes_search',
        'notes_export',
      ]);
    });
  });

  describe('a scope with enabledToolsets (restricting)', () => {
    it('admits only tools an enabled toolset holds by its toolset field', () => {
      expect(scoped({ enabledToolsets: ['mcp-slack'] })).toEqual([
        'slack_post_message',
        'slack_list_channels',
      ]);
    });

    it("admits tools a definition's tools list names", () => {
      expect(scoped({ enabledToolsets: ['web'] })).toEqual(['web_fetch', 'web_search']);
      expect(scoped({ enabledToolsets: ['files'] })).toEqual([
        'read_file',
        'write_file',
        'edit_file',
      ]);
    });

    it('follows nested includes', () => {
      expect(scoped({ enabledToolsets: ['dev'] })).toEqual([
        'read_file',
        'write_file',
        'edit_file',
        'run_shell',
        'web_fetch',
        'web_search',
        'github_create_issue',
        'github_list_issues',
        'github_create_pull_request',
        'postgres_query',
      ]);
      expect(scoped({ enabledToolsets: ['everything'] })).toEqual(
        all.filter((name) => name !== 'todo_write'),
      );
    });

    it('never admits a tool that belongs to no toolset', () => {
      expect(scoped({ enabledToolsets: ['everything'] })).not.toContain('todo_write');
      expect(scoped({ enabledToolsets: [''] })).toEqual([]);
    });

    it('admits nothing when the list is empty', () => {
      expect(scoped({ enabledToolsets: [] })).toEqual([]);
      expect(scoped({ enabledToolsets: [], disabledToolsets: ['mcp-slack'] })).toEqual([]);
    });

    it('admits nothing for a toolset no tool belongs to', () => {
      expect(scoped({ enabledToolsets: ['mcp-unknown', 'nope'] })).toEqual([]);
    });

    it('lets disabled win over enabled, also through includes and lists', () => {
      expect(scoped({ enabledToolsets: ['dev'], disabledToolsets: ['mcp-github', 'web'] })).toEqual(
        ['read_file', 'write_file', 'edit_file', 'run_shell', 'postgres_query'],
      );
      expect(scoped({ enabledToolsets: ['mcp-slack'], disabledToolsets: ['mcp-slack'] })).toEqual(
        [],
      );
      // code-review lists run_shell and includes files: disabling it removes them too.
      expect(scoped({ enabledToolsets: ['core'], disabledToolsets: ['code-review'] })).toEqual([
        'web_fetch',
        'web_search',
      ]);
    });
  });

  it('without a registry, a toolset holds exactly the tools whose toolset field names it', () => {
    expect(scopedWithoutRegistry({ enabledToolsets: ['dev', 'files'] })).toEqual([
      'read_file',
      'write_file',
    ]);
    expect(scopedWithoutRegistry({ disabledToolsets: ['core'] })).toEqual(all);
  });

  it('keeps order and the tool objects themselves, and is idempotent', () => {
    const scope = { enabledToolsets: ['chat', 'mcp-github'] };
    const once = scopeTools(realisticTools, scope, registry);
    expect(once[0]).toBe(realisticTools.find((tool) => tool.name === 'github_create_issue'));
    expect(scopeTools(once, scope, registry)).toEqual(once);
    expect(once).not.toBe(realisticTools);
  });

  describe('garbage input', () => {
    const garbageScopes: unknown[] = [
      null,
      undefined,
      'mcp-github',
      42,
      ['mcp-github'],
      { enabledToolsets: 'mcp-github' },
      { enabledToolsets: null },
      { enabledToolsets: { 0: 'mcp-github' } },
      { disabledToolsets: 'mcp-slack' },
      { disabledToolsets: null },
      { disabledToolsets: [42] },
      { disabledToolsets: ['mcp-slack', { name: 'x' }] },
    ];

    it('admits nothing for a scope it cannot read, and never throws', () => {
      for (const scope of garbageScopes) {
        expect(scopeTools(realisticTools, scope as SessionScope, registry)).toEqual([]);
        expect(scopeTools(realisticTools, scope as SessionScope)).toEqual([]);
      }
    });

    it('ignores enabled entries that are not strings, which only narrows', () => {
      const scope = {
        enabledToolsets: [42, null, 'mcp-slack', ['chat']],
      } as unknown as SessionScope;
      expect(scoped(scope)).toEqual(['slack_post_message', 'slack_list_channels']);
    });

    it('admits nothing when tools is not an array, and skips entries that are not tools', () => {
      expect(scopeTools('tools' as unknown as ToolDefinition[], {})).toEqual([]);
      expect(scopeTools(null as unknown as ToolDefinition[], {})).toEqual([]);
      const mixed = [null, 7, {}, { name: 3 }, realisticTools[0]] as unknown as ToolDefinition[];
      expect(namesOf(scopeTools(mixed, {}, registry))).toEqual(['read_file']);
    });

    it('treats a non-string toolset field as no toolset', () => {
      const odd = {
        name: 'odd',
        inputSchema: {},
        toolset: ['mcp-slack'],
      } as unknown as ToolDefinition;
      expect(scopeTools([odd], { enabledToolsets: ['mcp-slack'] })).toEqual([]);
      expect(scopeTools([odd], {})).toEqual([odd]);
    });

    it('admits nothing with a registry that is not one, or that throws', () => {
      expect(scopeTools(realisticTools, {}, {} as ToolsetRegistry)).toEqual([]);
      expect(scopeTools(realisticTools, {}, 'registry' as unknown as ToolsetRegistry)).toEqual([]);
      const throwing: ToolsetRegistry = {
        ...registry,
        expand: registry.expand,
        listing: () => {
          throw new Error('boom');
        },
      };
      expect(scopeTools(realisticTools, {}, throwing)).toEqual([]);
      const lying: ToolsetRegistry = {
        ...registry,
        expand: () => 'core' as unknown as string[],
        listing: registry.listing,
      };
      expect(scopeTools(realisticTools, { disabledToolsets: ['core'] }, lying)).toEqual([]);
    });

    it('admits nothing when a tool throws on read', () => {
      const trap = Object.defineProperty({ inputSchema: {} }, 'name', {
        get() {
          throw new Error('trap');
        },
      }) as ToolDefinition;
      expect(scopeTools([realisticTools[0]!, trap], {})).toEqual([]);
    });
  });

  it('scopes 10,000 tools in one pass: one registry look-up per tool at most, one expansion per scope name', () => {
    const tools: ToolDefinition[] = [];
    for (let index = 0; index < 10_000; index++) {
      tools.push({
        name: `tool_${index}`,
        inputSchema: { type: 'object' },
        source: 'mcp',
        toolset: `mcp-server${index % 50}`,
      });
    }
    const big = createToolsetRegistry([
      ...Array.from({ length: 20 }, (_, index) => ({
        name: `group${index}`,
        includes: [`mcp-server${index}`, `mcp-server${index + 20}`],
        tools: [`tool_${index * 7 + 3}`],
      })),
      { name: 'all-groups', includes: Array.from({ length: 20 }, (_, index) => `group${index}`) },
    ]);
    const scope = { enabledToolsets: ['all-groups'], disabledToolsets: ['mcp-server3'] };
    // At most one registry look-up per tool and one expansion per scope name: linear by construction.
    const calls = { expand: 0, listing: 0 };
    const counting: ToolsetRegistry = {
      ...big,
      expand: (name) => {
        calls.expand++;
        return big.expand(name);
      },
      listing: (name) => {
        calls.listing++;
        return big.listing(name);
      },
    };
    const result = scopeTools(tools, scope, counting);
    expect(calls.expand).toBe(2);
    expect(calls.listing).toBeLessThanOrEqual(10_000);
    // 40 servers of 200 tools, minus mcp-server3, plus the listed tool_45 and tool_94.
    expect(result.length).toBe(7_802);
  });
});

describe('scopeKey', () => {
  it('is the same for the same names in any order or repeated', () => {
    expect(
      scopeKey({ enabledToolsets: ['b', 'a', 'a'], disabledToolsets: ['y', 'x'] }, registry),
    ).toBe(scopeKey({ enabledToolsets: ['a', 'b'], disabledToolsets: ['x', 'y', 'x'] }, registry));
    expect(scopeKey({}, registry)).toBe(scopeKey({ disabledToolsets: [] }, registry));
  });

  it('tells apart scopes that admit different tools', () => {
    const keys = new Set(
      [
        {},
        { enabledToolsets: ['dev'] },
        { enabledToolsets: ['dev', 'chat'] },
        { disabledToolsets: ['dev'] },
        { enabledToolsets: ['dev'], disabledToolsets: ['mcp-github'] },
        { enabledToolsets: ['a","b'] },
        { enabledToolsets: ['a', 'b'] },
      ].map((scope) => scopeKey(scope, registry)),
    );
    expect(keys.size).toBe(7);
  });

  it("changes with the registry's definitions, and not when they are rebuilt unchanged", () => {
    const scope = { enabledToolsets: ['dev'] };
    const rebuilt = createToolsetRegistry(
      realisticDefinitions.map((definition) => ({ ...definition })),
    );
    const changed = createToolsetRegistry([...realisticDefinitions, { name: 'ops' }]);
    expect(scopeKey(scope, rebuilt)).toBe(scopeKey(scope, registry));
    expect(scopeKey(scope, changed)).not.toBe(scopeKey(scope, registry));
    expect(scopeKey(scope)).not.toBe(scopeKey(scope, registry));
    expect(scopeKey(scope, registry)).toBe(`v1;r=${registry.fingerprint};e=["dev"];d=[]`);
    expect(scopeKey({})).toBe('v1;r=-;e=*;d=[]');
  });

  it('gives every scope that admits nothing one key, and never throws', () => {
    expect(scopeKey({ enabledToolsets: [] }, registry)).toBe('v1;none');
    expect(scopeKey(null as unknown as SessionScope, registry)).toBe('v1;none');
    expect(scopeKey({ disabledToolsets: 'x' } as unknown as SessionScope)).toBe('v1;none');
    expect(scopeKey({}, {} as ToolsetRegistry)).toBe('v1;none');
    const trap = Object.defineProperty({}, 'disabledToolsets', {
      get() {
        throw new Error('trap');
      },
    }) as SessionScope;
    expect(scopeKey(trap, registry)).toBe('v1;none');
    expect(scopeTools(realisticTools, trap, registry)).toEqual([]);
  });
});
