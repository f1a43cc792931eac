import type { ToolDefinition, ToolSource } from '../types.js';
import {
  type FromProviderToolOptions,
  fromProviderSchema,
  ownName,
  type ProviderObjectSchema,
  providerName,
  type ToProviderToolOptions,
  toProviderSchema,
} from './schema.js';

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
 * @param options.names - maps the name to one Anthropic accepts (`createToolNameMap` with `ANTHROPIC_TOOL_NAME_RULES`)
 * @returns `{ name, description, input_schema }`
 * @throws `ToolSearchError` `invalid_tool_definition` when the schema's `type` is not `object`; `unknown_tool` when `names` does not hold the tool
 */
export function toAnthropicTool(
  tool: ToolDefinition,
  options: ToProviderToolOptions = {},
): AnthropicToolOutput {
  const out: AnthropicToolOutput = {
    name: providerName(tool.name, options),
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
 * @param options.names - maps the name back to the tool's own name
 * @returns the definition
 * @throws nothing
 */
export function fromAnthropicTool(
  tool: AnthropicTool,
  source?: ToolSource,
  options: FromProviderToolOptions = {},
): ToolDefinition {
  const definition: ToolDefinition = {
    name: ownName(tool.name, options),
    inputSchema: fromProviderSchema(tool.input_schema),
  };
  if (tool.description !== undefined) definition.description = tool.description;
  if (source !== undefined) definition.source = source;
  return definition;
}
