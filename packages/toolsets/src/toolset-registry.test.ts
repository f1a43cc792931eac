import { ToolSearchError } from '@tool-search/core';
import { describe, expect, it } from 'vitest';
import { realisticDefinitions, realisticTools } from './__fixtures__/realistic.js';
import {
  createToolsetRegistry,
  isMcpToolsetName,
  mcpToolsetName,
  type ToolsetDefinition,
} from './toolset-registry.js';

function errorOf(run: () => unknown): ToolSearchError {
  try {
    run();
  } catch (error) {
    if (ToolSearchError.isInstance(error)) return error;
    throw new Error(`expected a ToolSearchError, got ${String(error)}`);
  }
  throw new Error('expected a ToolSearchError, but nothing was thrown');
}

const toolNamed = (name: string) => realisticTools.find((tool) => tool.name === name)!;

describe('createToolsetRegistry', () => {
  const registry = createToolsetRegistry(realisticDefinitions);

  it('resolves includes transitively, the toolset first and each member once', () => {
    expect(registry.expand('dev')).toEqual([
      'dev',
      'core',
      'files',
      'shell',
      'web',
      'code-review',
      'mcp-github',
      'mcp-postgres',
    ]);
    expect(registry.expand('everything')).toEqual([
      'everything',
      'dev',
      'core',
      'files',
      'shell',
      'web',
      'code-review',
      'mcp-github',
      'mcp-postgres',
      'chat',
      'mcp-slack',
      'plugin-notes',
      'mcp-linear',
    ]);
    expect(registry.expand('files')).toEqual(['files']);
  });

  it('knows implicit mcp-<server> toolsets without a definition', () => {
    expect(registry.has('mcp-github')).toBe(true);
    expect(registry.has('mcp-anything')).toBe(true);
    expect(registry.get('mcp-github')).toBeUndefined();
    expect(registry.expand('mcp-anything')).toEqual(['mcp-anything']);
    expect(registry.has('mcp-')).toBe(false);
  });

  it('does not know other undefined names, and expands them to themselves', () => {
    expect(registry.has('nope')).toBe(false);
    expect(registry.expand('nope')).toEqual(['nope']);
  });

  it('lists the definitions in order, frozen, and answers get/names', () => {
    expect(registry.names()).toEqual(realisticDefinitions.map((definition) => definition.name));
    expect(registry.get('core')).toEqual({
      name: 'core',
      description: 'Built-in tools',
      includes: ['files', 'shell', 'web'],
    });
    expect(Object.isFrozen(registry.get('core'))).toBe(true);
    expect(Object.isFrozen(registry.definitions())).toBe(true);
  });

  it('is not affected by later changes to the definitions it was given', () => {
    const definitions = [{ name: 'a', tools: ['x'], includes: [] as string[] }];
    const own = createToolsetRegistry(definitions);
    const before = own.fingerprint;
    definitions[0]!.tools.push('y');
    definitions[0]!.includes.push('mcp-z');
    expect(own.listing('y')).toEqual([]);
    expect(own.expand('a')).toEqual(['a']);
    expect(own.fingerprint).toBe(before);
  });

  it('allows a definition for an mcp-<server> toolset, e.g. to list more tools', () => {
    const own = createToolsetRegistry([
      { name: 'mcp-github', description: 'GitHub', tools: ['gh_helper'] },
      { name: 'review', includes: ['mcp-github'] },
    ]);
    expect(own.get('mcp-github')?.description).toBe('GitHub');
    expect(own.toolsetsOf({ name: 'gh_helper' })).toEqual(['mcp-github', 'review']);
  });

  it('rejects two definitions with one name as duplicate_toolset, naming it', () => {
    const error = errorOf(() =>
      createToolsetRegistry([{ name: 'files' }, { name: 'web' }, { name: 'files', tools: ['x'] }]),
    );
    expect(error.code).toBe('duplicate_toolset');
    expect(error.message).toContain("'files'");
  });

  it('rejects an include of an undefined toolset as unknown_toolset, naming both', () => {
    const error = errorOf(() =>
      createToolsetRegistry([{ name: 'dev', includes: ['files', 'mcp-github'] }]),
    );
    expect(error.code).toBe('unknown_toolset');
    expect(error.message).toContain("'dev'");
    expect(error.message).toContain("'files'");
  });

  it('rejects a cycle as toolset_cycle, naming the path', () => {
    const two = errorOf(() =>
      createToolsetRegistry([
        { name: 'a', includes: ['b'] },
        { name: 'b', includes: ['a'] },
      ]),
    );
    expect(two.code).toBe('toolset_cycle');
    expect(two.message).toContain('a -> b -> a');

    const self = errorOf(() => createToolsetRegistry([{ name: 'a', includes: ['a'] }]));
    expect(self.code).toBe('toolset_cycle');
    expect(self.message).toContain('a -> a');

    const reached = errorOf(() =>
      createToolsetRegistry([
        { name: 'top', includes: ['x'] },
        { name: 'x', includes: ['y', 'mcp-ok'] },
        { name: 'y', includes: ['z'] },
        { name: 'z', includes: ['x'] },
      ]),
    );
    expect(reached.code).toBe('toolset_cycle');
    expect(reached.message).toContain('x -> y -> z -> x');
    expect(reached.message).not.toContain('top');
  });

  it('accepts a diamond (two paths to one toolset), which is not a cycle', () => {
    const own = createToolsetRegistry([
      { name: 'base' },
      { name: 'left', includes: ['base'] },
      { name: 'right', includes: ['base'] },
      { name: 'top', includes: ['left', 'right'] },
    ]);
    expect(own.expand('top')).toEqual(['top', 'left', 'base', 'right']);
  });

  it('rejects malformed definitions as invalid_argument, naming the toolset and field', () => {
    const cases: [unknown, string][] = [
      ['files', 'array'],
      [[null], '#0'],
      [[{ description: 'no name' }], "'name'"],
      [[{ name: '' }], "'name'"],
      [[{ name: 'a', tools: 'read_file' }], "'a'.tools"],
      [[{ name: 'a', includes: [42] }], "'a'.includes[0]"],
      [[{ name: 'a', description: 7 }], "'a'.description"],
    ];
    for (const [input, fragment] of cases) {
      const error = errorOf(() => createToolsetRegistry(input as ToolsetDefinition[]));
      expect(error.code).toBe('invalid_argument');
      expect(error.message).toContain(fragment);
    }
  });

  it('answers which definitions list a tool, and every toolset that holds it', () => {
    expect(registry.listing('edit_file')).toEqual(['files']);
    expect(registry.listing('read_file')).toEqual([]);
    expect(registry.toolsetsOf(toolNamed('edit_file'))).toEqual([
      'code-review',
      'core',
      'dev',
      'everything',
      'files',
    ]);
    expect(registry.toolsetsOf(toolNamed('run_shell'))).toEqual([
      'code-review',
      'core',
      'dev',
      'everything',
      'shell',
    ]);
    expect(registry.toolsetsOf(toolNamed('todo_write'))).toEqual([]);
    expect(registry.toolsetsOf({ name: 'x', toolset: 'unknown' })).toEqual(['unknown']);
  });

  describe('fingerprint', () => {
    it('is equal for equal definitions, whatever their order', () => {
      const reordered = [...realisticDefinitions].reverse().map((definition) => ({
        ...definition,
        ...(definition.includes ? { includes: [...definition.includes].reverse() } : {}),
      }));
      expect(createToolsetRegistry(reordered).fingerprint).toBe(registry.fingerprint);
      expect(createToolsetRegistry(realisticDefinitions).fingerprint).toBe(registry.fingerprint);
    });

    it('changes when any definition changes', () => {
      const variants: ToolsetDefinition[][] = [
        [...realisticDefinitions, { name: 'extra' }],
        realisticDefinitions.filter((definition) => definition.name !== 'everything'),
        realisticDefinitions.map((d) => (d.name === 'web' ? { ...d, tools: ['web_fetch'] } : d)),
        realisticDefinitions.map((d) => (d.name === 'chat' ? { ...d, includes: [] } : d)),
        realisticDefinitions.map((d) => (d.name === 'shell' ? { ...d, description: 'sh' } : d)),
      ];
      const prints = new Set([registry.fingerprint]);
      for (const variant of variants) prints.add(createToolsetRegistry(variant).fingerprint);
      expect(prints.size).toBe(variants.length + 1);
    });

    it('exists for an empty registry', () => {
      expect(createToolsetRegistry([]).fingerprint).toMatch(/^[0-9a-f]{32}$/);
    });
  });
});

describe('mcpToolsetName', () => {
  it('names the implicit toolset of an MCP server', () => {
    expect(mcpToolsetName('github')).toBe('mcp-github');
  });
});

describe('isMcpToolsetName', () => {
  it('recognises mcp-<server> names only', () => {
    expect(isMcpToolsetName('mcp-github')).toBe(true);
    expect(isMcpToolsetName('mcp-')).toBe(false);
    expect(isMcpToolsetName('github')).toBe(false);
    expect(isMcpToolsetName(42 as unknown as string)).toBe(false);
  });
});
