import { describe, expect, it } from 'vitest';
import { paddedTool } from './__fixtures__/tools.js';
import { assembleTools } from './assemble.js';
import { createBridgeTools } from './definitions.js';

describe('createBridgeTools', () => {
  it('defines tool_search(query, limit?), tool_describe(name), tool_call(name, arguments)', () => {
    const [search, describeTool, call] = createBridgeTools();
    expect(search!.name).toBe('tool_search');
    expect(search!.inputSchema.required).toEqual(['query']);
    expect(Object.keys(search!.inputSchema.properties!)).toEqual(['query', 'limit']);
    expect(describeTool!.name).toBe('tool_describe');
    expect(describeTool!.inputSchema.required).toEqual(['name']);
    expect(call!.name).toBe('tool_call');
    expect(call!.inputSchema.required).toEqual(['name', 'arguments']);
    expect(call!.inputSchema.properties!['arguments']).toMatchObject({ type: 'object' });
  });

  it('tells the model the sequence, that listed tools need no search, and that policy runs', () => {
    const [search, describeTool, call] = createBridgeTools();
    expect(search!.description).toMatch(/tool_search.*tool_describe.*tool_call/);
    expect(search!.description).toContain('Tools already in your tools list need no search');
    expect(describeTool!.description).toContain('tool_call');
    expect(call!.description).toContain(
      'Policy, hooks and approvals run exactly as for a directly listed tool.',
    );
  });

  it('states the deferred count by default', () => {
    expect(createBridgeTools({ deferredCount: 120 })[0]!.description).toContain(
      'Search the 120 tools that are not in your tools list.',
    );
    expect(createBridgeTools({ deferredCount: 1 })[0]!.description).toContain(
      'Search the 1 tool that is not in your tools list.',
    );
  });

  it('with stableDescriptions, is byte-identical for catalogs of different sizes', () => {
    const sizes = [1, 17, 300];
    const serialised = sizes.map((size) => {
      const tools = Array.from({ length: size }, (_, index) => paddedTool(index, 50 + index));
      const assembly = assembleTools({
        tools,
        config: { enabled: 'on', max_search_limit: size > 100 ? 50 : 10 },
        stableDescriptions: true,
      });
      expect(assembly.activated).toBe(true);
      return JSON.stringify(assembly.tools.slice(-3));
    });
    expect(new Set(serialised).size).toBe(1);
    expect(JSON.stringify(createBridgeTools({ stableDescriptions: true }))).toBe(serialised[0]);

    const counted = sizes.map((size) => JSON.stringify(createBridgeTools({ deferredCount: size })));
    expect(new Set(counted).size).toBe(sizes.length);
  });
});
