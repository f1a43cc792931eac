import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import {
  fromAnthropicTool,
  fromOpenAIResponsesTool,
  fromOpenAITool,
  toAnthropicTool,
  toOpenAIResponsesTool,
  toOpenAITool,
} from '../formats.js';
import { createToolNameMap, OPENAI_TOOL_NAME_RULES } from '../tool-name-map.js';
import type { ToolDefinition } from '../types.js';

// `pnpm typecheck` compiles this file against the SDKs' own types: an assignment that
// stops compiling (ours to theirs, or theirs to ours) fails CI.

const definition: ToolDefinition = {
  name: 'github.create_issue',
  description: 'Create an issue',
  inputSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
  source: 'mcp',
};

const anthropicTool: Anthropic.Tool = {
  name: 'get_weather',
  description: 'Get the weather',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: null },
  cache_control: { type: 'ephemeral' },
  type: 'custom',
};

const chatTool: OpenAI.Chat.Completions.ChatCompletionFunctionTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Get the weather',
    parameters: { type: 'object', properties: { city: { type: 'string' } } },
    strict: null,
  },
};

const responsesTool: OpenAI.Responses.FunctionTool = {
  type: 'function',
  name: 'get_weather',
  description: null,
  parameters: { type: 'object', properties: { city: { type: 'string' } } },
  strict: null,
};

describe('the converters against the SDK types', () => {
  it('give objects the SDKs accept as their own tool types', () => {
    const anthropic: Anthropic.Tool[] = [toAnthropicTool(definition)];
    const chat: OpenAI.Chat.Completions.ChatCompletionTool[] = [toOpenAITool(definition)];
    const chatFunction: OpenAI.Chat.Completions.ChatCompletionFunctionTool =
      toOpenAITool(definition);
    const responses: OpenAI.Responses.FunctionTool[] = [toOpenAIResponsesTool(definition)];
    const responsesAny: OpenAI.Responses.Tool = toOpenAIResponsesTool(definition);
    expect(anthropic[0]?.input_schema.type).toBe('object');
    expect(chat[0]?.type).toBe('function');
    expect(chatFunction.function.parameters).toEqual(definition.inputSchema);
    expect(responses[0]?.strict).toBe(false);
    expect(responsesAny.type).toBe('function');
  });

  it('take the SDKs own objects, with their nulls, and round-trip them', () => {
    const fromAnthropic = fromAnthropicTool(anthropicTool, 'mcp');
    expect(fromAnthropic).toEqual({
      name: 'get_weather',
      description: 'Get the weather',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
      source: 'mcp',
    });
    const backToAnthropic: Anthropic.Tool = toAnthropicTool(fromAnthropic);
    expect(backToAnthropic).toEqual({
      name: 'get_weather',
      description: 'Get the weather',
      input_schema: { type: 'object', properties: { city: { type: 'string' } } },
    });

    const fromChat = fromOpenAITool(chatTool);
    expect(toOpenAITool(fromChat)).toEqual({
      type: 'function',
      function: {
        name: 'get_weather',
        description: 'Get the weather',
        parameters: { type: 'object', properties: { city: { type: 'string' } } },
      },
    });

    const fromResponses = fromOpenAIResponsesTool(responsesTool);
    expect(fromResponses.description).toBeUndefined();
    expect(toOpenAIResponsesTool(fromResponses)).toEqual({
      type: 'function',
      name: 'get_weather',
      parameters: { type: 'object', properties: { city: { type: 'string' } } },
      strict: false,
    });
  });

  it('map names that break OpenAI rules and map the model calls back', () => {
    const names = createToolNameMap([definition], OPENAI_TOOL_NAME_RULES);
    const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [definition].map((tool) =>
      toOpenAITool({ ...tool, name: names.toProvider(tool.name) }),
    );
    const sent = tools[0]?.type === 'function' ? tools[0].function.name : '';
    expect(sent).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(names.fromProvider(sent)).toBe('github.create_issue');
  });

  it('convert whole lists with Array.map', () => {
    const anthropic: Anthropic.Tool[] = [definition].map(toAnthropicTool);
    const responses: OpenAI.Responses.Tool[] = [definition].map(toOpenAIResponsesTool);
    const back = [anthropicTool].map((tool) => fromAnthropicTool(tool));
    expect(anthropic).toHaveLength(1);
    expect(responses).toHaveLength(1);
    expect(back[0]?.name).toBe('get_weather');
  });
});
