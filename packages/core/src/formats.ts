import type { JsonSchemaObject, ToolAnnotations, ToolDefinition, ToolSource } from './types.js';

/** A tool as MCP `tools/list` returns it (the fields tool search uses). */
export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchemaObject;
  annotations?: ToolAnnotations;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A Chat Completions function tool (`tools[]` of the OpenAI Chat Completions API). */
export interface OpenAIChatTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: JsonSchemaObject; strict?: boolean };
}

/** A function tool of the OpenAI Responses API. */
export interface OpenAIResponsesTool {
  type: 'function';
  name: string;
  description?: string;
  parameters?: JsonSchemaObject;
  strict?: boolean;
}

/** A client tool of the Anthropic Messages API. */
export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: JsonSchemaObject;
}

/** The `_meta` key by which an MCP server pins a tool (never deferred). */
export const MCP_ALWAYS_LOAD_META_KEY = 'anthropic/alwaysLoad';

const EMPTY_OBJECT_SCHEMA: JsonSchemaObject = Object.freeze({ type: 'object', properties: {} });

/** Options of {@link fromMcpTool}. */
export interface FromMcpToolOptions {
  /** The server's name; sets `toolset` to `mcp-<server>` and `origin` to `{ server, name }`. */
  server?: string;
  /** The source to record. @defaultValue 'mcp' */
  source?: ToolSource;
}

/**
 * Converts an MCP tool into a {@link ToolDefinition}: `source: 'mcp'`, `toolset:
 * 'mcp-<server>'` and `origin: { server, name }` when a server is given, its
 * annotations, and `alwaysLoad` when
 * `_meta["anthropic/alwaysLoad"]` is true. Does not validate: pass the result to
 * `validateToolDefinition` when the server is untrusted.
 *
 * @param tool - the MCP tool
 * @param options.server - the server's name
 * @param options.source - the source to record @defaultValue 'mcp'
 * @returns the definition
 * @throws nothing
 */
export function fromMcpTool(tool: McpTool, options: FromMcpToolOptions = {}): ToolDefinition {
  const definition: ToolDefinition = {
    name: tool.name,
    inputSchema: tool.inputSchema ?? EMPTY_OBJECT_SCHEMA,
    source: options.source ?? 'mcp',
  };
  if (tool.description !== undefined) definition.description = tool.description;
  else if (tool.title !== undefined) definition.description = tool.title;
  if (options.server !== undefined) {
    definition.toolset = `mcp-${options.server}`;
    definition.origin = { server: options.server, name: tool.name };
  }
  if (tool.annotations !== undefined) definition.annotations = tool.annotations;
  if (tool._meta?.[MCP_ALWAYS_LOAD_META_KEY] === true) definition.alwaysLoad = true;
  return definition;
}

/**
 * Converts a {@link ToolDefinition} into an MCP tool for `tools/list`.
 *
 * @param tool - the definition
 * @returns the MCP tool (`name`, `description`, `inputSchema`, `annotations`)
 * @throws nothing
 */
export function toMcpTool(tool: ToolDefinition): McpTool {
  const mcp: McpTool = { name: tool.name, inputSchema: objectSchema(tool.inputSchema) };
  if (tool.description !== undefined) mcp.description = tool.description;
  if (tool.annotations !== undefined) mcp.annotations = tool.annotations;
  return mcp;
}

/**
 * Converts a {@link ToolDefinition} into an OpenAI Chat Completions function tool.
 *
 * @param tool - the definition
 * @returns `{ type: 'function', function: { name, description, parameters } }`
 * @throws nothing
 */
export function toOpenAITool(tool: ToolDefinition): OpenAIChatTool {
  const fn: OpenAIChatTool['function'] = {
    name: tool.name,
    parameters: objectSchema(tool.inputSchema),
  };
  if (tool.description !== undefined) fn.description = tool.description;
  return { type: 'function', function: fn };
}

/**
 * Converts an OpenAI Chat Completions function tool into a {@link ToolDefinition}.
 *
 * @param tool - the OpenAI tool
 * @param source - the source to record; absent means the tool is never deferred
 * @returns the definition
 * @throws nothing
 */
export function fromOpenAITool(tool: OpenAIChatTool, source?: ToolSource): ToolDefinition {
  const definition: ToolDefinition = {
    name: tool.function.name,
    inputSchema: tool.function.parameters ?? EMPTY_OBJECT_SCHEMA,
  };
  if (tool.function.description !== undefined) definition.description = tool.function.description;
  if (source !== undefined) definition.source = source;
  return definition;
}

/**
 * Converts a {@link ToolDefinition} into a function tool of the OpenAI Responses API.
 *
 * @param tool - the definition
 * @returns `{ type: 'function', name, description, parameters }`
 * @throws nothing
 */
export function toOpenAIResponsesTool(tool: ToolDefinition): OpenAIResponsesTool {
  const out: OpenAIResponsesTool = {
    type: 'function',
    name: tool.name,
    parameters: objectSchema(tool.inputSchema),
  };
  if (tool.description !== undefined) out.description = tool.description;
  return out;
}

/**
 * Converts a {@link ToolDefinition} into an Anthropic Messages API tool.
 *
 * @param tool - the definition
 * @returns `{ name, description, input_schema }`
 * @throws nothing
 */
export function toAnthropicTool(tool: ToolDefinition): AnthropicTool {
  const out: AnthropicTool = { name: tool.name, input_schema: objectSchema(tool.inputSchema) };
  if (tool.description !== undefined) out.description = tool.description;
  return out;
}

/**
 * Converts an Anthropic Messages API tool into a {@link ToolDefinition}.
 *
 * @param tool - the Anthropic tool
 * @param source - the source to record; absent means the tool is never deferred
 * @returns the definition
 * @throws nothing
 */
export function fromAnthropicTool(tool: AnthropicTool, source?: ToolSource): ToolDefinition {
  const definition: ToolDefinition = {
    name: tool.name,
    inputSchema: tool.input_schema ?? EMPTY_OBJECT_SCHEMA,
  };
  if (tool.description !== undefined) definition.description = tool.description;
  if (source !== undefined) definition.source = source;
  return definition;
}

// Providers reject a parameters schema without `type: 'object'`.
function objectSchema(schema: JsonSchemaObject | undefined): JsonSchemaObject {
  if (schema === undefined) return { ...EMPTY_OBJECT_SCHEMA };
  return schema.type === undefined ? { type: 'object', ...schema } : schema;
}
