import type { ToolDefinition, ToolSource } from '../types.js';
import { fromProviderSchema, type ProviderObjectSchema, toProviderSchema } from './schema.js';

/** The input schema of an Anthropic tool (`Anthropic.Tool.InputSchema` of `@anthropic-ai/sdk`). */
export interface AnthropicInputSchema {
  type: 'object';
  properties?: unknown | null;
  required?: string[] | null;
  [keyword: string]: unknown;
}

/**
 * A client tool of the Anthropic Messages API, structurally the `Anthropic.Tool` of
 * `@anthropic-ai/sdk` in the fields tool search uses: an `Anthropic.Tool` is accepted
 * as it is, and the converters' output is an `Anthropic.Tool`.
 */
export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: AnthropicInputSchema;
  defer_loading?: boolean;
  strict?: boolean;
  type?: 'custom' | null;
}

/** The tool {@link toAnthropicTool} gives: its schema always has `type: 'object'`. */
export interface AnthropicToolOutput extends AnthropicTool {
  input_schema: ProviderObjectSchema;
}

/**
 * Converts a {@link ToolDefinition} into an Anthropic Messages API tool, assignable
 * to `Anthropic.Tool`.
 *
 * @param tool - the definition
 * @returns `{ name, description, input_schema }`
 * @throws `ToolSearchError` `invalid_tool_definition` when the schema's `type` is not `object`
 */
export function toAnthropicTool(tool: ToolDefinition): AnthropicToolOutput {
  const out: AnthropicToolOutput = {
    name: tool.name,
    input_schema: toProviderSchema(tool.inputSchema, tool.name),
  };
  if (tool.description !== undefined) out.description = tool.description;
  return out;
}

/**
 * Converts an Anthropic Messages API tool (an `Anthropic.Tool`) into a
 * {@link ToolDefinition}. Keywords the SDK allows as `null` (`properties`,
 * `required`) are left out.
 *
 * @param tool - the Anthropic tool
 * @param source - the source to record; absent means the tool is never deferred
 * @returns the definition
 * @throws nothing
 */
export function fromAnthropicTool(tool: AnthropicTool, source?: ToolSource): ToolDefinition {
  const definition: ToolDefinition = {
    name: tool.name,
    inputSchema: fromProviderSchema(tool.input_schema),
  };
  if (tool.description !== undefined) definition.description = tool.description;
  if (source !== undefined) definition.source = source;
  return definition;
}
