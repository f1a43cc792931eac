import type { ToolDefinition, ToolSource } from '../types.js';
import { fromProviderSchema, type ProviderObjectSchema, toProviderSchema } from './schema.js';

/** OpenAI's function parameters (`FunctionParameters` of `openai`): any JSON Schema object. */
export interface OpenAIFunctionParameters {
  [keyword: string]: unknown;
}

/**
 * A Chat Completions function tool, structurally `ChatCompletionFunctionTool` of
 * `openai`: accepted as it is, and the converters' output is one.
 */
export interface OpenAIChatTool {
  type: 'function';
  function: {
    name: string;
    description?: string;
    parameters?: OpenAIFunctionParameters;
    strict?: boolean | null;
  };
}

/** The tool {@link toOpenAITool} gives: its parameters always have `type: 'object'`. */
export interface OpenAIChatToolOutput extends OpenAIChatTool {
  function: OpenAIChatTool['function'] & { parameters: ProviderObjectSchema };
}

/**
 * A function tool of the OpenAI Responses API, structurally `Responses.FunctionTool`
 * of `openai` in the fields tool search uses: accepted as it is, and the converters'
 * output is one.
 */
export interface OpenAIResponsesTool {
  type: 'function';
  name: string;
  description?: string | null;
  parameters: OpenAIFunctionParameters | null;
  strict: boolean | null;
  defer_loading?: boolean;
}

/** The tool {@link toOpenAIResponsesTool} gives. */
export interface OpenAIResponsesToolOutput extends OpenAIResponsesTool {
  description?: string;
  parameters: ProviderObjectSchema;
  strict: boolean;
}

/**
 * Converts a {@link ToolDefinition} into an OpenAI Chat Completions function tool,
 * assignable to `ChatCompletionTool`. `strict` is left out (the API's default, off):
 * a tool's schema is not a strict-mode schema unless made one.
 *
 * @param tool - the definition
 * @returns `{ type: 'function', function: { name, description, parameters } }`
 * @throws `ToolSearchError` `invalid_tool_definition` when the schema's `type` is not `object`
 */
export function toOpenAITool(tool: ToolDefinition): OpenAIChatToolOutput {
  const fn: OpenAIChatToolOutput['function'] = {
    name: tool.name,
    parameters: toProviderSchema(tool.inputSchema, tool.name),
  };
  if (tool.description !== undefined) fn.description = tool.description;
  return { type: 'function', function: fn };
}

/**
 * Converts an OpenAI Chat Completions function tool (a `ChatCompletionFunctionTool`)
 * into a {@link ToolDefinition}; `strict` is not kept.
 *
 * @param tool - the OpenAI tool
 * @param source - the source to record; absent means the tool is never deferred
 * @returns the definition
 * @throws nothing
 */
export function fromOpenAITool(tool: OpenAIChatTool, source?: ToolSource): ToolDefinition {
  const definition: ToolDefinition = {
    name: tool.function.name,
    inputSchema: fromProviderSchema(tool.function.parameters),
  };
  if (tool.function.description !== undefined) definition.description = tool.function.description;
  if (source !== undefined) definition.source = source;
  return definition;
}

/**
 * Converts a {@link ToolDefinition} into a function tool of the OpenAI Responses API,
 * assignable to `Responses.FunctionTool`. `strict` is `false`, because the Responses
 * API turns strict mode on when it is left out and a tool's schema is not a
 * strict-mode schema unless made one.
 *
 * @param tool - the definition
 * @returns `{ type: 'function', name, description, parameters, strict: false }`
 * @throws `ToolSearchError` `invalid_tool_definition` when the schema's `type` is not `object`
 */
export function toOpenAIResponsesTool(tool: ToolDefinition): OpenAIResponsesToolOutput {
  const out: OpenAIResponsesToolOutput = {
    type: 'function',
    name: tool.name,
    parameters: toProviderSchema(tool.inputSchema, tool.name),
    strict: false,
  };
  if (tool.description !== undefined) out.description = tool.description;
  return out;
}

/**
 * Converts a function tool of the OpenAI Responses API (a `Responses.FunctionTool`)
 * into a {@link ToolDefinition}; a `null` description or parameters are left out,
 * `strict` and `defer_loading` are not kept.
 *
 * @param tool - the Responses function tool
 * @param source - the source to record; absent means the tool is never deferred
 * @returns the definition
 * @throws nothing
 */
export function fromOpenAIResponsesTool(
  tool: OpenAIResponsesTool,
  source?: ToolSource,
): ToolDefinition {
  const definition: ToolDefinition = {
    name: tool.name,
    inputSchema: fromProviderSchema(tool.parameters),
  };
  if (typeof tool.description === 'string') definition.description = tool.description;
  if (source !== undefined) definition.source = source;
  return definition;
}
