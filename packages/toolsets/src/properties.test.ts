import type { ToolDefinition } from '@tool-search/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { narrowScope } from './narrow-scope.js';
import { type SessionScope, scopeKey, scopeTools } from './session-scope.js';
import {
  createToolsetRegistry,
  type ToolsetDefinition,
  type ToolsetRegistry,
} from './toolset-registry.js';

// Small pools, so that random registries, tools and scopes collide often.
const DEFINABLE = ['core', 'files', 'web', 'dev', 'chat', 'plugin-x', 'mcp-a'];
const IMPLICIT = ['mcp-a', 'mcp-b', 'mcp-c'];
const TOOLSET_NAMES = [...new Set([...DEFINABLE, ...IMPLICIT, 'stray'])];
const TOOL_NAMES = Array.from({ length: 14 }, (_, index) => `tool_${index}`);

// Includes only point forward in the list (or at implicit mcp-*), so the registry is a DAG.
const definitionsArb: fc.Arbitrary<ToolsetDefinition[]> = fc
  .shuffledSubarray(DEFINABLE)
  .chain((names) =>
    fc.tuple(
      ...names.map((name, index) =>
        fc.record(
          {
            name: fc.constant(name),
            tools: fc.subarray(TOOL_NAMES),
            includes: fc.subarray([
              ...names.slice(index + 1),
              ...IMPLICIT.filter((implicit) => !names.includes(implicit)),
            ]),
          },
          { requiredKeys: ['name'] },
        ),
      ),
    ),
  );

const registryArb: fc.Arbitrary<ToolsetRegistry | undefined> = fc.option(
  definitionsArb.map((definitions) => createToolsetRegistry(definitions)),
  { nil: undefined },
);

const toolsArb: fc.Arbitrary<ToolDefinition[]> = fc
  .uniqueArray(
    fc.record(
      {
        name: fc.constantFrom(...TOOL_NAMES),
        toolset: fc.constantFrom(...TOOLSET_NAMES),
        source: fc.constantFrom('core' as const, 'mcp' as const, 'plugin' as const),
      },
      { requiredKeys: ['name'] },
    ),
    { selector: (tool) => tool.name, maxLength: TOOL_NAMES.length },
  )
  .map((tools) => tools.map((tool) => ({ ...tool, inputSchema: { type: 'object' } })));

const namesArb = fc.array(fc.constantFrom(...TOOLSET_NAMES), { maxLength: 5 });

const scopeArb: fc.Arbitrary<SessionScope> = fc.record(
  { enabledToolsets: namesArb, disabledToolsets: namesArb },
  { requiredKeys: [] },
);

// Anything a runtime might be handed: good scopes, scopes with odd entries, junk.
const requestArb: fc.Arbitrary<SessionScope | undefined> = fc.oneof(
  { weight: 5, arbitrary: scopeArb },
  {
    weight: 2,
    arbitrary: fc.record(
      {
        enabledToolsets: fc.oneof(
          namesArb,
          fc.array(fc.oneof(fc.constantFrom(...TOOLSET_NAMES), fc.anything())),
          fc.anything(),
        ),
        disabledToolsets: fc.oneof(
          namesArb,
          fc.array(fc.oneof(fc.constantFrom(...TOOLSET_NAMES), fc.anything())),
          fc.anything(),
        ),
      },
      { requiredKeys: [] },
    ) as fc.Arbitrary<SessionScope>,
  },
  { weight: 1, arbitrary: fc.anything() as fc.Arbitrary<SessionScope> },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

function isSubsequence(
  inner: readonly ToolDefinition[],
  outer: readonly ToolDefinition[],
): boolean {
  const allowed = new Set(outer);
  return inner.every((tool) => allowed.has(tool));
}

// An independent statement of the rule, through registry.toolsetsOf.
function inScopeByRule(tool: ToolDefinition, scope: SessionScope, registry?: ToolsetRegistry) {
  const holders = registry
    ? registry.toolsetsOf(tool)
    : tool.toolset === undefined
      ? []
      : [tool.toolset];
  if (holders.some((name) => scope.disabledToolsets?.includes(name))) return false;
  if (scope.enabledToolsets === undefined) return true;
  return holders.some((name) => scope.enabledToolsets!.includes(name));
}

const runs = { numRuns: 400 };

describe('scopeTools (properties)', () => {
  it('admits exactly the tools the rule admits', () => {
    fc.assert(
      fc.property(toolsArb, scopeArb, registryArb, (tools, scope, registry) => {
        const expected = tools.filter((tool) => inScopeByRule(tool, scope, registry));
        expect(scopeTools(tools, scope, registry)).toEqual(expected);
      }),
      runs,
    );
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(toolsArb, requestArb, registryArb, (tools, scope, registry) => {
        const once = scopeTools(tools, scope as SessionScope, registry);
        expect(scopeTools(once, scope as SessionScope, registry)).toEqual(once);
      }),
      runs,
    );
  });

  it('never lets a tool of a disabled toolset through', () => {
    fc.assert(
      fc.property(toolsArb, scopeArb, registryArb, (tools, scope, registry) => {
        for (const tool of scopeTools(tools, scope, registry)) {
          const holders = registry ? registry.toolsetsOf(tool) : [tool.toolset];
          for (const disabled of scope.disabledToolsets ?? []) {
            expect(holders).not.toContain(disabled);
          }
        }
      }),
      runs,
    );
  });

  it('never admits, in a restricting scope, a tool no enabled toolset holds', () => {
    fc.assert(
      fc.property(toolsArb, scopeArb, registryArb, (tools, scope, registry) => {
        if (scope.enabledToolsets === undefined) return;
        for (const tool of scopeTools(tools, scope, registry)) {
          const holders = registry ? registry.toolsetsOf(tool) : [tool.toolset];
          expect(holders.some((name) => scope.enabledToolsets!.includes(name!))).toBe(true);
        }
      }),
      runs,
    );
  });

  it('never throws, and admits no more than an unrestricted scope, for any input', () => {
    fc.assert(
      fc.property(fc.anything(), requestArb, registryArb, (junk, scope, registry) => {
        const result = scopeTools(junk as ToolDefinition[], scope as SessionScope, registry);
        expect(Array.isArray(result)).toBe(true);
        if (Array.isArray(junk)) {
          expect(isSubsequence(result, junk as ToolDefinition[])).toBe(true);
        }
      }),
      runs,
    );
  });
});

describe('narrowScope (properties)', () => {
  it('is never wider than its parent, under the registry it narrowed with', () => {
    fc.assert(
      fc.property(
        toolsArb,
        scopeArb,
        requestArb,
        registryArb,
        (tools, parent, request, registry) => {
          const child = narrowScope(parent, request, registry);
          const parentTools = scopeTools(tools, parent, registry);
          expect(isSubsequence(scopeTools(tools, child, registry), parentTools)).toBe(true);
        },
      ),
      runs,
    );
  });

  it('narrowed without a registry, is never wider under any registry', () => {
    fc.assert(
      fc.property(
        toolsArb,
        scopeArb,
        requestArb,
        registryArb,
        (tools, parent, request, registry) => {
          const child = narrowScope(parent, request);
          const parentTools = scopeTools(tools, parent, registry);
          expect(isSubsequence(scopeTools(tools, child, registry), parentTools)).toBe(true);
        },
      ),
      runs,
    );
  });

  it('is never wider than its parent, even when the parent is garbage', () => {
    fc.assert(
      fc.property(
        toolsArb,
        requestArb,
        requestArb,
        registryArb,
        (tools, parent, request, registry) => {
          const child = narrowScope(parent as SessionScope, request, registry);
          const parentTools = scopeTools(tools, parent as SessionScope, registry);
          expect(isSubsequence(scopeTools(tools, child, registry), parentTools)).toBe(true);
        },
      ),
      runs,
    );
  });

  it("keeps the parent's disabled toolsets disabled, so they never leak into the child", () => {
    fc.assert(
      fc.property(
        toolsArb,
        scopeArb,
        requestArb,
        registryArb,
        (tools, parent, request, registry) => {
          const child = narrowScope(parent, request, registry);
          for (const disabled of parent.disabledToolsets ?? []) {
            expect(child.disabledToolsets).toContain(disabled);
          }
          for (const tool of scopeTools(tools, child, registry)) {
            const holders = registry ? registry.toolsetsOf(tool) : [tool.toolset];
            for (const disabled of parent.disabledToolsets ?? []) {
              expect(holders).not.toContain(disabled);
            }
          }
        },
      ),
      runs,
    );
  });

  it('is a fixed point: narrowing a child by itself gives the same tools', () => {
    fc.assert(
      fc.property(
        toolsArb,
        scopeArb,
        requestArb,
        registryArb,
        (tools, parent, request, registry) => {
          const child = narrowScope(parent, request, registry);
          const again = narrowScope(child, { ...child }, registry);
          expect(scopeTools(tools, again, registry)).toEqual(scopeTools(tools, child, registry));
        },
      ),
      runs,
    );
  });
});

describe('scopeKey (properties)', () => {
  it('gives scopes with the same names (any order, repeats) the same key and the same tools', () => {
    fc.assert(
      fc.property(toolsArb, scopeArb, registryArb, fc.integer(), (tools, scope, registry, seed) => {
        const shuffle = (names: readonly string[] | undefined) =>
          names === undefined
            ? undefined
            : [...names, ...names.slice(0, 1)].sort((a, b) => (a + seed < b + seed ? 1 : -1));
        const twin: SessionScope = {};
        const enabled = shuffle(scope.enabledToolsets);
        const disabled = shuffle(scope.disabledToolsets);
        if (enabled !== undefined) twin.enabledToolsets = enabled;
        if (disabled !== undefined) twin.disabledToolsets = disabled;
        expect(scopeKey(twin, registry)).toBe(scopeKey(scope, registry));
        expect(scopeTools(tools, twin, registry)).toEqual(scopeTools(tools, scope, registry));
      }),
      runs,
    );
  });

  it('gives scopes with equal keys the same tools', () => {
    fc.assert(
      fc.property(toolsArb, requestArb, requestArb, registryArb, (tools, a, b, registry) => {
        if (scopeKey(a as SessionScope, registry) !== scopeKey(b as SessionScope, registry)) return;
        expect(scopeTools(tools, a as SessionScope, registry)).toEqual(
          scopeTools(tools, b as SessionScope, registry),
        );
      }),
      runs,
    );
  });
});
