import { DynamicStructuredTool, tool } from '@langchain/core/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolDefinitionsFromTools } from './tool-definitions.js';
import { withToolSearch } from './with-tool-search.js';

const noop = async () => 'ok';

describe('toolDefinitionsFromTools', () => {
  it('converts zod and JSON Schema tools with LangChain’s own conversion, in order', () => {
    const definitions = toolDefinitionsFromTools([
      tool(noop, {
        name: 'create_issue',
        description: 'Create an issue.',
        schema: z.object({ title: z.string(), labels: z.array(z.string()).optional() }),
      }),
      new DynamicStructuredTool({
        name: 'get_weather',
        description: 'Weather.',
        schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        func: noop,
      }),
    ]);
    expect(definitions.map((definition) => definition.name)).toEqual([
      'create_issue',
      'get_weather',
    ]);
    expect(definitions[0]).toMatchObject({
      description: 'Create an issue.',
      source: 'plugin',
      inputSchema: {
        type: 'object',
        properties: { title: { type: 'string' }, labels: { type: 'array' } },
        required: ['title'],
      },
    });
    expect(definitions[0]?.inputSchema).not.toHaveProperty('$schema');
    expect(definitions[1]?.inputSchema).toEqual({
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
    });
  });

  it('reads labels from metadata.toolSearch first, MCP annotations from metadata.annotations, then the options', () => {
    const labelled = new DynamicStructuredTool({
      name: 'list_tickets',
      description: 'List tickets.',
      schema: { type: 'object' as const, properties: {} },
      metadata: {
        annotations: { readOnlyHint: true },
        toolSearch: {
          source: 'mcp',
          toolset: 'mcp-tracker',
          origin: { server: 'tracker', name: 'list' },
        },
      },
      func: noop,
    });
    const plain = tool(noop, {
      name: 'read_file',
      description: 'Read.',
      schema: z.object({ path: z.string() }),
    });
    const other = tool(noop, { name: 'post', description: 'Post.', schema: z.object({}) });
    const [first, second, third] = toolDefinitionsFromTools([labelled, plain, other], {
      core: ['read_file'],
      pinned: ['post'],
      toolsets: { slack: ['post'] },
    });
    expect(first).toMatchObject({
      source: 'mcp',
      toolset: 'mcp-tracker',
      origin: { server: 'tracker', name: 'list' },
      annotations: { readOnlyHint: true },
    });
    expect(second).toMatchObject({ source: 'core' });
    expect(third).toMatchObject({ source: 'plugin', toolset: 'slack', alwaysLoad: true });
  });

  it('refuses two tools of one name', () => {
    const one = tool(noop, { name: 'same', description: 'A.', schema: z.object({}) });
    expect(() => toolDefinitionsFromTools([one, one])).toThrow(/two tools are named 'same'/);
  });
});

describe('withToolSearch', () => {
  it('refuses a tool that takes a name the bridge reserves', () => {
    const taken = tool(noop, { name: 'tool_search', description: 'Mine.', schema: z.object({}) });
    expect(() => withToolSearch([taken], { logger: { warn() {} } })).toThrow(/reserves/);
    const program = tool(noop, {
      name: 'tool_program',
      description: 'Mine.',
      schema: z.object({}),
    });
    expect(() => withToolSearch([program], { program: true, logger: { warn() {} } })).toThrow(
      /reserves/,
    );
  });
});
