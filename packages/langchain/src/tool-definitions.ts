import type { StructuredToolInterface } from '@langchain/core/tools';
import { toJsonSchema } from '@langchain/core/utils/json_schema';
import type { ToolAnnotations, ToolDefinition, ToolOrigin, ToolSource } from '@tool-search/core';
import { ToolSearchError } from '@tool-search/core';
import { isRecord } from '@tool-search/core/internal';

/**
 * What tool search knows about one LangChain tool, read from `metadata.toolSearch` of the
 * tool (LangChain never sends `metadata` to the model). MCP annotations loaded by
 * `@langchain/mcp-adapters` (`metadata.annotations`) are read too.
 */
export interface ToolSearchMetadata {
  /** The toolset that holds the tool, e.g. `mcp-github`. */
  toolset?: string;
  /** `core` tools are never deferred; `mcp` and `plugin` tools may be. */
  source?: ToolSource;
  /** Pinned: never deferred. */
  alwaysLoad?: boolean;
  /** The tool's server and upstream name, when it comes from an MCP server. */
  origin?: ToolOrigin;
  /** MCP annotations (`readOnlyHint`, `destructiveHint`, ...). */
  annotations?: ToolAnnotations;
}

/** Labels for tools whose `metadata.toolSearch` says nothing. */
export interface LangChainToolLabels {
  /**
   * The source of a tool that says none. A LangChain tool list is usually the app's own
   * tools and MCP tools, which may be deferred.
   * @defaultValue 'plugin'
   */
  source?: ToolSource;
  /** Names of built-in tools (`source: 'core'`): never deferred. */
  core?: Iterable<string>;
  /** Names of tools that stay visible whatever their source (`alwaysLoad`). */
  pinned?: Iterable<string>;
  /** Toolsets by name, each with the names of the tools it holds. */
  toolsets?: Readonly<Record<string, Iterable<string>>>;
}

const SOURCES: ReadonlySet<string> = new Set(['core', 'mcp', 'plugin']);

function readMetadata(tool: StructuredToolInterface): ToolSearchMetadata {
  const metadata = isRecord(metadataOf(tool))
    ? (metadataOf(tool) as Record<string, unknown>)
    : undefined;
  const labels: ToolSearchMetadata = {};
  if (!metadata) return labels;
  // @langchain/mcp-adapters keeps an MCP tool's annotations here.
  if (isRecord(metadata['annotations'])) labels.annotations = { ...metadata['annotations'] };
  const raw = isRecord(metadata['toolSearch']) ? metadata['toolSearch'] : undefined;
  if (!raw) return labels;
  if (typeof raw['toolset'] === 'string') labels.toolset = raw['toolset'];
  if (typeof raw['source'] === 'string' && SOURCES.has(raw['source'])) {
    labels.source = raw['source'] as ToolSource;
  }
  if (typeof raw['alwaysLoad'] === 'boolean') labels.alwaysLoad = raw['alwaysLoad'];
  const origin = raw['origin'];
  if (
    isRecord(origin) &&
    typeof origin['server'] === 'string' &&
    typeof origin['name'] === 'string'
  ) {
    labels.origin = { server: origin['server'], name: origin['name'] };
  }
  if (isRecord(raw['annotations'])) labels.annotations = { ...raw['annotations'] };
  return labels;
}

function schemaOf(tool: StructuredToolInterface): Record<string, unknown> {
  let schema: unknown;
  try {
    // LangChain's own conversion: zod 3 and 4, Standard JSON Schema, or JSON Schema as is.
    schema = toJsonSchema(tool.schema as Parameters<typeof toJsonSchema>[0]);
  } catch (error) {
    throw new ToolSearchError(
      'invalid_tool_definition',
      `The schema of the LangChain tool '${tool.name}' could not be converted to JSON Schema. Give it a zod schema or a JSON Schema object.`,
      { cause: error, data: { tool: tool.name } },
    );
  }
  if (!isRecord(schema)) {
    throw new ToolSearchError(
      'invalid_tool_definition',
      `The schema of the LangChain tool '${tool.name}' is not a JSON Schema object.`,
      { data: { tool: tool.name } },
    );
  }
  const { $schema: _dialect, ...rest } = schema;
  // A tool without arguments (a string tool, an empty zod object) still takes an object.
  return rest['type'] === undefined ? { type: 'object', properties: {}, ...rest } : rest;
}

/**
 * Converts LangChain tools (any `StructuredToolInterface`: `tool()`, `DynamicStructuredTool`,
 * MCP tools from `@langchain/mcp-adapters`) into tool search's `ToolDefinition`s, in order.
 * Each schema is converted with `@langchain/core`'s own `toJsonSchema` (zod or JSON Schema).
 * Labels come from each tool's `metadata.toolSearch` first, then from `labels`.
 *
 * @example
 * ```ts
 * const definitions = toolDefinitionsFromTools(tools, { core: ['read_file'] });
 * ```
 *
 * @param tools - the LangChain tools
 * @param labels - sources, pins and toolsets for tools whose metadata says none
 * @returns one definition per tool
 * @throws `ToolSearchError` `invalid_tool_definition` when a schema cannot be converted;
 * `invalid_argument` when two tools share a name
 */
export function toolDefinitionsFromTools(
  tools: readonly StructuredToolInterface[],
  labels: LangChainToolLabels = {},
): ToolDefinition[] {
  const core = new Set(labels.core ?? []);
  const pinned = new Set(labels.pinned ?? []);
  const toolsets = new Map<string, string>();
  for (const [toolset, names] of Object.entries(labels.toolsets ?? {})) {
    for (const name of names) if (!toolsets.has(name)) toolsets.set(name, toolset);
  }
  const seen = new Set<string>();
  return tools.map((tool) => {
    if (seen.has(tool.name)) {
      throw new ToolSearchError(
        'invalid_argument',
        `withToolSearch: two tools are named '${tool.name}'; tool names must be unique.`,
        { data: { tool: tool.name } },
      );
    }
    seen.add(tool.name);
    const meta = readMetadata(tool);
    const definition: ToolDefinition = {
      name: tool.name,
      inputSchema: schemaOf(tool) as ToolDefinition['inputSchema'],
      source: core.has(tool.name) ? 'core' : (meta.source ?? labels.source ?? 'plugin'),
    };
    if (typeof tool.description === 'string') definition.description = tool.description;
    const toolset = meta.toolset ?? toolsets.get(tool.name);
    if (toolset !== undefined) definition.toolset = toolset;
    if (meta.alwaysLoad === true || pinned.has(tool.name)) definition.alwaysLoad = true;
    if (meta.origin) definition.origin = meta.origin;
    if (meta.annotations) definition.annotations = meta.annotations;
    return definition;
  });
}

// Every LangChain tool class carries `metadata`; the interface does not declare it.
function metadataOf(tool: StructuredToolInterface): unknown {
  return (tool as { metadata?: unknown }).metadata;
}
