import type { ToolDefinition } from '@tool-search/core';
import { ToolSearchError } from '@tool-search/core';
import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgentModel } from './__fixtures__/agent-model.js';
import { toolDefinitionsFromToolSet, toolSetFromDefinitions } from './tool-set-definitions.js';

const definitions: ToolDefinition[] = [
  {
    name: 'github_create_issue',
    description: 'Create a new issue in a GitHub repository',
    inputSchema: {
      type: 'object',
      properties: { title: { type: 'string' } },
      required: ['title'],
    },
    source: 'mcp',
    toolset: 'mcp-github',
    origin: { server: 'github', name: 'create_issue' },
  },
  {
    name: 'bash',
    description: 'Run a shell command',
    inputSchema: { type: 'object', properties: { command: { type: 'string' } } },
    source: 'core',
  },
  {
    name: 'notes_read',
    inputSchema: { type: 'object' },
    source: 'plugin',
    toolset: 'notes',
    alwaysLoad: true,
  },
];

describe('toolDefinitionsFromToolSet and toolSetFromDefinitions', () => {
  it('round-trip definitions with their toolsets, sources, pins and origins', async () => {
    const tools = toolSetFromDefinitions(definitions, () => 'ran');
    const back = await toolDefinitionsFromToolSet(tools);
    expect(back).toEqual(definitions.map((definition) => ({ description: '', ...definition })));
  });

  it('converts a zod schema and an asynchronous Standard Schema, and labels from options', async () => {
    const tools = {
      read_file: tool({
        description: 'Read a file',
        inputSchema: z.object({ path: z.string().describe('The file') }),
        execute: async () => 'x',
      }),
      search_notes: tool({
        description: 'Search notes',
        inputSchema: jsonSchema({ type: 'object', properties: { q: { type: 'string' } } }),
        execute: async () => 'x',
      }),
    };
    const [read, search] = await toolDefinitionsFromToolSet(tools, {
      core: ['read_file'],
      toolsets: { notes: ['search_notes'] },
    });
    expect(read).toMatchObject({
      name: 'read_file',
      source: 'core',
      inputSchema: {
        type: 'object',
        properties: { path: { type: 'string', description: 'The file' } },
      },
    });
    expect(search).toMatchObject({ name: 'search_notes', source: 'plugin', toolset: 'notes' });
  });

  it('leaves provider-defined tools out', async () => {
    const tools = {
      mine: tool({ inputSchema: z.object({}), execute: async () => 'x' }),
      web_search: {
        type: 'provider',
        id: 'openai.web_search',
        args: {},
        inputSchema: jsonSchema({}),
      },
    } as never;
    expect((await toolDefinitionsFromToolSet(tools)).map((tool) => tool.name)).toEqual(['mine']);
  });

  it('throws a typed error naming the tool whose schema is not a JSON Schema object', async () => {
    const tools = {
      broken: tool({ inputSchema: jsonSchema(42 as never), execute: async () => 'x' }),
    };
    const error = await toolDefinitionsFromToolSet(tools).catch((caught: unknown) => caught);
    expect(ToolSearchError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'invalid_tool_definition', data: { tool: 'broken' } });
  });

  it('refuses two definitions of one name', () => {
    const [first] = definitions;
    expect(() => toolSetFromDefinitions([first!, first!], () => 'x')).toThrow(
      /two tools are named/,
    );
  });

  it('runs a converted tool in a real generateText loop with the call and the AI SDK options', async () => {
    const seen: unknown[] = [];
    const tools = toolSetFromDefinitions(definitions, (call, options) => {
      seen.push({ call, toolCallId: options.toolCallId });
      return { created: call.arguments['title'] };
    });
    const agent = createAgentModel({
      query: 'x',
      name: 'github_create_issue',
      arguments: { title: 'Bug' },
      style: 'direct',
    });
    const result = await generateText({
      model: agent.model,
      tools,
      stopWhen: stepCountIs(3),
      prompt: 'x',
    });
    expect(seen).toEqual([
      {
        call: { id: 'call-1', name: 'github_create_issue', arguments: { title: 'Bug' } },
        toolCallId: 'call-1',
      },
    ]);
    expect(result.text).toContain('"created":"Bug"');
  });
});
