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
 * annotations, `title`, `icons` and `outputSchema`, and `alwaysLoad` when
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
  if (tool.title !== undefined) definition.title = tool.title;
  // Display fields a client may use: kept where well formed, else left out (never the tool).
  const icons = Array.isArray(tool['icons'])
    ? tool['icons'].filter((icon) => isObject(icon) && typeof icon['src'] === 'string')
    : [];
  if (icons.length > 0) definition.icons = icons;
  const output = tool['outputSchema'];
  if (isObject(output) && (output.type === undefined || output.type === 'object')) {
    definition.outputSchema = output;
  }
  if (tool._meta?.[MCP_ALWAYS_LOAD_META_KEY] === true) definition.alwaysLoad = true;
  return definition;
}

/**
 * Converts a {@link ToolDefinition} into an MCP tool for `tools/list`.
 *
 * @param tool - the definition
 * @returns the MCP tool (`name`, `description`, `inputSchema`, `annotations`, `title`,
 * `icons`, `outputSchema`)
 * @throws nothing
 */
export function toMcpTool(tool: ToolDefinition): McpTool {
  const mcp: McpTool = { name: tool.name, inputSchema: objectSchema(tool.inputSchema) };
  if (tool.description !== undefined) mcp.description = tool.description;
  if (tool.annotations !== undefined) mcp.annotations = tool.annotations;
  if (tool.title !== undefined) mcp.title = tool.title;
  if (tool.icons !== undefined) mcp['icons'] = tool.icons;
  if (tool.outputSchema !== undefined) mcp['outputSchema'] = tool.outputSchema;
  return mcp;
}

function isObject(value: unknown): value is JsonSchemaObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// MCP requires `type: 'object'` on a tool's input schema.
function objectSchema(schema: JsonSchemaObject | undefined): JsonSchemaObject {
  if (schema === undefined) return { ...EMPTY_OBJECT_SCHEMA };
  return schema.type === undefined ? { type: 'object', ...schema } : schema;
}

export type {
  AnthropicInputSchema,
  AnthropicTool,
  AnthropicToolOutput,
} from './formats/anthropic.js';
export { fromAnthropicTool, toAnthropicTool } from './formats/anthropic.js';
export type {
  OpenAIChatTool,
  OpenAIChatToolOutput,
  OpenAIFunctionParameters,
  OpenAIResponsesTool,
  OpenAIResponsesToolOutput,
} from './formats/openai.js';
export {
  fromOpenAIResponsesTool,
  fromOpenAITool,
  toOpenAIResponsesTool,
  toOpenAITool,
} from './formats/openai.js';
export type { ProviderObjectSchema } from './formats/schema.js';
