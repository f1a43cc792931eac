import { describe, expect, it } from 'vitest';
import { namesOf, realisticDefinitions, realisticTools } from './__fixtures__/realistic.js';
import { narrowScope } from './narrow-scope.js';
import { type SessionScope, scopeTools } from './session-scope.js';
import { createToolsetRegistry, type ToolsetRegistry } from './toolset-registry.js';

const registry = createToolsetRegistry(realisticDefinitions);
const scoped = (scope: SessionScope) => namesOf(scopeTools(realisticTools, scope, registry));

describe('narrowScope', () => {
  it('gives the parent scope when the request is absent or empty', () => {
    const parent = { enabledToolsets: ['dev'], disabledToolsets: ['mcp-postgres'] };
    expect(narrowScope(parent, undefined)).toEqual(parent);
    expect(narrowScope(parent, {})).toEqual(parent);
    expect(narrowScope({}, {})).toEqual({});
    expect(narrowScope(parent, {}).refused).toEqual([]);
  });

  it('enables the requested toolsets the parent enables', () => {
    const child = narrowScope({ enabledToolsets: ['dev', 'chat'] }, { enabledToolsets: ['chat'] });
    expect(child).toEqual({ enabledToolsets: ['chat'] });
    expect(scoped(child)).toEqual(['slack_post_message', 'slack_list_channels']);
  });

  it('refuses a toolset the parent does not enable, and reports it', () => {
    const child = narrowScope(
      { enabledToolsets: ['mcp-github'] },
      { enabledToolsets: ['mcp-github', 'plugin-notes'] },
    );
    expect(child.enabledToolsets).toEqual(['mcp-github']);
    expect(child.refused).toEqual([
      {
        reason: 'not_in_parent',
        field: 'enabledToolsets',
        toolset: 'plugin-notes',
        granted: [],
        message: "Toolset 'plugin-notes' is not enabled in the parent scope; refused.",
      },
    ]);
  });

  it('admits nothing when every requested toolset is refused', () => {
    const child = narrowScope({ enabledToolsets: ['chat'] }, { enabledToolsets: ['plugin-notes'] });
    expect(child.enabledToolsets).toEqual([]);
    expect(scoped(child)).toEqual([]);
  });

  it('with a registry, allows a toolset that a parent toolset includes', () => {
    const child = narrowScope(
      { enabledToolsets: ['dev'] },
      { enabledToolsets: ['mcp-github', 'files'] },
      registry,
    );
    expect(child.enabledToolsets).toEqual(['mcp-github', 'files']);
    expect(child.refused).toEqual([]);
    expect(scoped(child)).toEqual([
      'read_file',
      'write_file',
      'edit_file',
      'github_create_issue',
      'github_list_issues',
      'github_create_pull_request',
    ]);
  });

  it('without a registry, compares names only (includes are not known)', () => {
    const child = narrowScope({ enabledToolsets: ['dev'] }, { enabledToolsets: ['mcp-github'] });
    expect(child.enabledToolsets).toEqual([]);
    expect(child.refused[0]?.reason).toBe('not_in_parent');
  });

  it('with a registry, grants the parts of a wider toolset that the parent enables', () => {
    const child = narrowScope(
      { enabledToolsets: ['mcp-github', 'web'], disabledToolsets: ['mcp-postgres'] },
      { enabledToolsets: ['dev'] },
      registry,
    );
    expect(child.enabledToolsets).toEqual(['web', 'mcp-github']);
    expect(child.refused).toEqual([
      {
        reason: 'not_in_parent',
        field: 'enabledToolsets',
        toolset: 'dev',
        granted: ['web', 'mcp-github'],
        message:
          "Toolset 'dev' is not enabled in the parent scope; refused. Granted the parts the parent enables instead: web, mcp-github.",
      },
    ]);
    expect(scoped(child)).toEqual(
      scoped({ enabledToolsets: ['mcp-github', 'web'], disabledToolsets: ['mcp-postgres'] }),
    );
  });

  it('grants only the widest parts, not what they already include', () => {
    const child = narrowScope(
      { enabledToolsets: ['core', 'files'] },
      { enabledToolsets: ['dev'] },
      registry,
    );
    expect(child.enabledToolsets).toEqual(['core']);
  });

  it('keeps every toolset the parent disables, and adds the requested ones', () => {
    const parent = { disabledToolsets: ['mcp-slack'] };
    expect(narrowScope(parent, { disabledToolsets: [] })).toEqual(parent);
    expect(narrowScope(parent, { disabledToolsets: ['plugin-notes', 'mcp-slack'] })).toEqual({
      disabledToolsets: ['mcp-slack', 'plugin-notes'],
    });
  });

  it('refuses to enable a toolset the parent disables', () => {
    const child = narrowScope(
      { disabledToolsets: ['chat'] },
      { enabledToolsets: ['mcp-slack', 'mcp-github'] },
      registry,
    );
    expect(child).toEqual({ enabledToolsets: ['mcp-github'], disabledToolsets: ['chat'] });
    expect(child.refused).toEqual([
      {
        reason: 'disabled_by_parent',
        field: 'enabledToolsets',
        toolset: 'mcp-slack',
        message: "Toolset 'mcp-slack' is disabled in the parent scope; refused.",
      },
    ]);
  });

  it('keeps partly disabled toolsets out of reach: disabled still wins in the child', () => {
    const child = narrowScope(
      { disabledToolsets: ['mcp-slack'] },
      { enabledToolsets: ['everything'] },
      registry,
    );
    expect(child.enabledToolsets).toEqual(['everything']);
    expect(scoped(child)).not.toContain('slack_post_message');
  });

  it('lets an unrestricted parent give any toolset it does not disable', () => {
    const child = narrowScope({}, { enabledToolsets: ['plugin-notes'] }, registry);
    expect(child).toEqual({ enabledToolsets: ['plugin-notes'] });
    expect(scoped(child)).toEqual(['notes_search', 'notes_export']);
  });

  it('returns a frozen plain scope whose refused list is not enumerable', () => {
    const child = narrowScope({ enabledToolsets: ['chat'] }, { enabledToolsets: ['dev'] });
    expect(Object.isFrozen(child)).toBe(true);
    expect(Object.isFrozen(child.enabledToolsets)).toBe(true);
    expect(Object.keys(child)).toEqual(['enabledToolsets']);
    expect(JSON.parse(JSON.stringify(child))).toEqual({ enabledToolsets: [] });
    expect({ ...child }).toEqual({ enabledToolsets: [] });
    expect(child.refused).toHaveLength(1);
  });

  describe('garbage', () => {
    const parent = { enabledToolsets: ['dev'], disabledToolsets: ['mcp-postgres'] };

    it('admits nothing for a request that is not a scope, and reports it', () => {
      for (const request of [null, 'dev', 42, ['dev'], true]) {
        const child = narrowScope(parent, request as unknown as SessionScope, registry);
        expect(child).toEqual({ enabledToolsets: [], disabledToolsets: ['mcp-postgres'] });
        expect(child.refused.map((refusal) => [refusal.reason, refusal.field])).toEqual([
          ['invalid', 'request'],
        ]);
      }
    });

    it('admits nothing when a request list is not an array', () => {
      for (const request of [
        { enabledToolsets: 'mcp-github' },
        { enabledToolsets: null },
        { disabledToolsets: 'mcp-github' },
        { disabledToolsets: [7] },
      ]) {
        const child = narrowScope(parent, request as unknown as SessionScope, registry);
        expect(child.enabledToolsets).toEqual([]);
        expect(child.refused[0]?.reason).toBe('invalid');
      }
    });

    it('drops enabled entries that are not names, and keeps the rest', () => {
      const child = narrowScope(
        parent,
        { enabledToolsets: [1, null, 'mcp-github'] } as unknown as SessionScope,
        registry,
      );
      expect(child.enabledToolsets).toEqual(['mcp-github']);
      expect(child.refused.map((refusal) => refusal.reason)).toEqual(['invalid', 'invalid']);
    });

    it('admits nothing under a parent it cannot read', () => {
      for (const bad of [null, 'x', { enabledToolsets: 'dev' }, { disabledToolsets: [{}] }]) {
        const child = narrowScope(
          bad as unknown as SessionScope,
          { enabledToolsets: ['dev'] },
          registry,
        );
        expect(child.enabledToolsets).toEqual([]);
        expect(scoped(child)).toEqual([]);
        expect(child.refused.some((refusal) => refusal.field === 'parent')).toBe(true);
      }
    });

    it('admits nothing when reading a scope throws, and does not throw itself', () => {
      const trapList = new Proxy(['dev'], {
        get(target, key) {
          if (key === '0') throw new Error('trap');
          return Reflect.get(target, key);
        },
      });
      const trapScope = Object.defineProperty({}, 'enabledToolsets', {
        get() {
          throw new Error('trap');
        },
        enumerable: true,
      }) as SessionScope;
      for (const [parentScope, request] of [
        [{}, { enabledToolsets: trapList }],
        [{}, { disabledToolsets: trapList }],
        [{ enabledToolsets: trapList }, {}],
        [trapScope, {}],
        [{}, trapScope],
      ] as [SessionScope, SessionScope][]) {
        const child = narrowScope(parentScope, request, registry);
        expect(child.enabledToolsets).toEqual([]);
        expect(child.refused.length).toBeGreaterThan(0);
      }
    });

    it('admits nothing with a registry that is not one, or that throws', () => {
      const notOne = narrowScope({}, {}, { expand: 1 } as unknown as ToolsetRegistry);
      expect(notOne.enabledToolsets).toEqual([]);
      expect(notOne.refused[0]?.field).toBe('registry');
      const throwing: ToolsetRegistry = {
        ...registry,
        expand: () => {
          throw new Error('boom');
        },
        listing: registry.listing,
      };
      expect(narrowScope({ enabledToolsets: ['dev'] }, {}, throwing).enabledToolsets).toEqual([]);
    });
  });
});
