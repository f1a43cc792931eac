import { describe, expect, it } from 'vitest';
import { strictModeViolations } from './__fixtures__/strict-mode.js';
import { mcpTools, paddedTool } from './__fixtures__/tools.js';
import { assembleTools } from './assemble.js';
import { createBridgeTools } from './definitions.js';

const properties = (schema: { properties?: Record<string, unknown> }) =>
  schema.properties as Record<string, Record<string, unknown>>;

describe('createBridgeTools', () => {
  it('defines tool_search(query | queries, limit?), tool_describe(name | names), tool_call(name, arguments | calls)', () => {
    const [search, describeTool, call] = createBridgeTools();
    expect(search!.name).toBe('tool_search');
    expect(Object.keys(search!.inputSchema.properties!)).toEqual(['query', 'queries', 'limit']);
    expect(properties(search!.inputSchema)['queries']).toMatchObject({
      type: 'array',
      items: { type: 'string' },
      maxItems: 5,
    });
    expect(describeTool!.name).toBe('tool_describe');
    expect(Object.keys(describeTool!.inputSchema.properties!)).toEqual(['name', 'names']);
    expect(properties(describeTool!.inputSchema)['names']).toMatchObject({ maxItems: 10 });
    expect(call!.name).toBe('tool_call');
    expect(Object.keys(call!.inputSchema.properties!)).toEqual(['name', 'arguments', 'calls']);
    expect(properties(call!.inputSchema)['arguments']).toMatchObject({ type: 'object' });
    expect(properties(call!.inputSchema)['calls']).toMatchObject({
      type: 'array',
      maxItems: 10,
      items: { type: 'object', required: ['name', 'arguments'] },
    });
    // Either form may be sent, so neither is required; the answers say what is missing.
    for (const tool of [search, describeTool, call]) {
      expect(tool!.inputSchema.required).toBeUndefined();
    }
  });

  it('states every batch bound in the schema descriptions', () => {
    const [search, describeTool, call] = createBridgeTools({ strict: true });
    expect(properties(search!.inputSchema)['queries']!['description']).toContain('at most 5');
    expect(properties(describeTool!.inputSchema)['names']!['description']).toContain('at most 10');
    expect(properties(call!.inputSchema)['calls']!['description']).toContain('at most 10');
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

describe('createBridgeTools({ strict: true })', () => {
  it('gives schemas that OpenAI strict mode accepts', () => {
    for (const tool of createBridgeTools({ strict: true, maxSearchLimit: 20, deferredCount: 9 })) {
      expect(strictModeViolations(tool.inputSchema), tool.name).toEqual([]);
    }
  });

  it('is checked by a strict-mode check that refuses the lenient schemas', () => {
    // Guards the test above: the default definitions break strict mode where the issue says.
    const [search, , call] = createBridgeTools({ maxSearchLimit: 20 });
    expect(strictModeViolations(search!.inputSchema).join('\n')).toMatch(/required/);
    expect(strictModeViolations(call!.inputSchema).join('\n')).toMatch(
      /\$\.arguments: an object without properties/,
    );
  });

  it('makes every optional field nullable and tool_call arguments JSON text', () => {
    const [search, describeTool, call] = createBridgeTools({ strict: true });
    expect(properties(search!.inputSchema)['query']!['type']).toEqual(['string', 'null']);
    expect(properties(search!.inputSchema)['queries']!['type']).toEqual(['array', 'null']);
    expect(properties(search!.inputSchema)['limit']!['type']).toEqual(['integer', 'null']);
    expect(properties(describeTool!.inputSchema)['names']!['type']).toEqual(['array', 'null']);
    expect(properties(call!.inputSchema)['arguments']).toMatchObject({ type: ['string', 'null'] });
    expect(properties(call!.inputSchema)['calls']).toMatchObject({
      type: ['array', 'null'],
      items: { properties: { arguments: { type: 'string' } }, additionalProperties: false },
    });
  });

  it('with stableDescriptions, is byte-identical whatever the catalog, toolsets or config', () => {
    const serialised = [1, 40].map((size) => {
      const tools = Array.from({ length: size }, (_, index) =>
        paddedTool(index, 80, `mcp-set${index % 7}`),
      );
      const assembly = assembleTools({
        tools,
        config: { enabled: 'on', max_search_limit: size },
        stableDescriptions: true,
        strict: true,
        describeToolset: (name) => `The ${name} server`,
      });
      return JSON.stringify(assembly.tools.slice(-3));
    });
    expect(serialised[0]).toBe(serialised[1]);
    expect(serialised[0]).toBe(
      JSON.stringify(createBridgeTools({ stableDescriptions: true, strict: true })),
    );
  });
});

describe('the searchable toolsets in the tool_search description', () => {
  const describeToolset = (name: string) =>
    ({
      'mcp-github': 'Repositories, issues and pull requests on GitHub.\nSecond line is not shown.',
      'mcp-slack': `Messages and channels on Slack. ${'very long '.repeat(30)}`,
    })[name];

  it('lists each toolset with its tool count and the first line of its description', () => {
    const assembly = assembleTools({ tools: mcpTools, config: { enabled: 'on' }, describeToolset });
    const description = assembly.tools.find((tool) => tool.name === 'tool_search')!.description!;
    expect(description).toContain(
      'Searchable toolsets:\n- mcp-github (9 tools): Repositories, issues and pull requests on GitHub.\n- mcp-slack (8 tools): Messages and channels on Slack. very long',
    );
    expect(description).not.toContain('Second line');
    const slackLine = description.split('\n').find((line) => line.startsWith('- mcp-slack'))!;
    expect(slackLine.endsWith('…')).toBe(true);
    expect(slackLine.length).toBeLessThanOrEqual('- mcp-slack (8 tools): '.length + 100);
  });

  it('lists toolsets by name and count without descriptions, sorted, at most 20', () => {
    const tools = Array.from({ length: 25 }, (_, index) =>
      paddedTool(index, 40, `mcp-s${String(24 - index).padStart(2, '0')}`),
    );
    const assembly = assembleTools({ tools, config: { enabled: 'on' } });
    const description = assembly.tools.find((tool) => tool.name === 'tool_search')!.description!;
    const lines = description.split('\n').slice(1);
    expect(lines[0]).toBe('- mcp-s00 (1 tool)');
    expect(lines[19]).toBe('- mcp-s19 (1 tool)');
    expect(lines[20]).toBe('- and 5 more toolsets');
    expect(lines).toHaveLength(21);
  });

  it('does not depend on the order of the tools', () => {
    const described = (tools: typeof mcpTools) =>
      assembleTools({ tools, config: { enabled: 'on' }, describeToolset }).tools.at(-3)!
        .description;
    expect(described([...mcpTools].reverse())).toBe(described(mcpTools));
  });

  it('is left out with stableDescriptions, so toolsets coming and going change no byte', () => {
    const assemble = (tools: typeof mcpTools, stableDescriptions: boolean) =>
      JSON.stringify(
        assembleTools({
          tools,
          config: { enabled: 'on' },
          describeToolset,
          stableDescriptions,
        }).tools.slice(-3),
      );
    const github = mcpTools.filter((tool) => tool.toolset === 'mcp-github');
    expect(assemble(github, true)).toBe(assemble(mcpTools, true));
    expect(assemble(github, true)).not.toContain('Searchable toolsets');
    expect(assemble(github, false)).not.toBe(assemble(mcpTools, false));
  });
});
