import { describe, expect, it } from 'vitest';
import {
  fromAnthropicTool,
  fromMcpTool,
  fromOpenAIResponsesTool,
  fromOpenAITool,
  toAnthropicTool,
  toMcpTool,
  toOpenAIResponsesTool,
  toOpenAITool,
} from './formats.js';
import { validateToolDefinition } from './tool-definition.js';
import type { ToolDefinition } from './types.js';

const schema = { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] };
const tool: ToolDefinition = {
  name: 'web_search',
  description: 'Search the web',
  inputSchema: schema,
  source: 'mcp',
};

describe('fromMcpTool', () => {
  it('records the source, the toolset of the server, annotations and the alwaysLoad pin', () => {
    const definition = fromMcpTool(
      {
        name: 'search',
        description: 'Search',
        inputSchema: schema,
        annotations: { readOnlyHint: true },
        _meta: { 'anthropic/alwaysLoad': true },
      },
      { server: 'brave' },
    );
    expect(definition).toEqual({
      name: 'search',
      description: 'Search',
      inputSchema: schema,
      source: 'mcp',
      toolset: 'mcp-brave',
      annotations: { readOnlyHint: true },
      alwaysLoad: true,
      origin: { server: 'brave', name: 'search' },
    });
  });

  it('keeps the display fields and output schema through MCP, and leaves out malformed ones', () => {
    const output = { type: 'object', properties: { total: { type: 'number' } } };
    const mcp = {
      name: 'sum',
      title: 'Sum numbers',
      description: 'Adds',
      inputSchema: schema,
      annotations: { title: 'Sum', readOnlyHint: true },
      icons: [{ src: 'https://example.test/sum.png', mimeType: 'image/png' }, { nosrc: 1 }],
      outputSchema: output,
    };
    const definition = validateToolDefinition(fromMcpTool(mcp, { server: 'math' }));
    expect(toMcpTool(definition)).toEqual({
      name: 'sum',
      title: 'Sum numbers',
      description: 'Adds',
      inputSchema: schema,
      annotations: { title: 'Sum', readOnlyHint: true },
      icons: [{ src: 'https://example.test/sum.png', mimeType: 'image/png' }],
      outputSchema: output,
    });
    const odd = fromMcpTool({ ...mcp, icons: 'x', outputSchema: { type: 'string' } });
    expect(odd.icons).toBeUndefined();
    expect(odd.outputSchema).toBeUndefined();
    expect(validateToolDefinition(odd).name).toBe('sum');
  });

  it('records no origin without a server', () => {
    expect(fromMcpTool({ name: 'x', inputSchema: schema }).origin).toBeUndefined();
  });

  it('falls back to the title when there is no description', () => {
    expect(fromMcpTool({ name: 'x', title: 'Do X', inputSchema: schema }).description).toBe('Do X');
  });
});

describe('provider formats', () => {
  it('never send the origin to the model', () => {
    const withOrigin: ToolDefinition = { ...tool, origin: { server: 'secret-srv', name: 'raw' } };
    for (const formatted of [
      toMcpTool(withOrigin),
      toOpenAITool(withOrigin),
      toOpenAIResponsesTool(withOrigin),
      toAnthropicTool(withOrigin),
    ]) {
      expect(JSON.stringify(formatted)).not.toContain('secret-srv');
      expect(JSON.stringify(formatted)).not.toContain('origin');
    }
  });

  it('round-trips through MCP, OpenAI Chat Completions and Anthropic', () => {
    expect(fromMcpTool(toMcpTool(tool))).toEqual(tool);
    expect(toOpenAITool(tool)).toEqual({
      type: 'function',
      function: { name: 'web_search', description: 'Search the web', parameters: schema },
    });
    expect(fromOpenAITool(toOpenAITool(tool), 'mcp')).toEqual(tool);
    expect(toAnthropicTool(tool)).toEqual({
      name: 'web_search',
      description: 'Search the web',
      input_schema: schema,
    });
    expect(fromAnthropicTool(toAnthropicTool(tool), 'mcp')).toEqual(tool);
    expect(toOpenAIResponsesTool(tool)).toEqual({
      type: 'function',
      name: 'web_search',
      description: 'Search the web',
      parameters: schema,
      strict: false,
    });
    expect(fromOpenAIResponsesTool(toOpenAIResponsesTool(tool), 'mcp')).toEqual(tool);
  });

  it('rejects a schema whose type is not object, which no provider accepts', () => {
    const scalar: ToolDefinition = { name: 'x', inputSchema: { type: 'string' } };
    for (const convert of [toOpenAITool, toOpenAIResponsesTool, toAnthropicTool]) {
      expect(() => convert(scalar)).toThrow(
        expect.objectContaining({ code: 'invalid_tool_definition' }),
      );
    }
  });

  it("adds type 'object' to a schema without a type, as providers require", () => {
    const loose: ToolDefinition = { name: 'x', inputSchema: { properties: {} } };
    expect(toOpenAITool(loose).function.parameters).toEqual({ type: 'object', properties: {} });
    expect(toAnthropicTool(loose).input_schema.type).toBe('object');
  });
});
