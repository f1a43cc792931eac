import type {
  ToolAnnotations,
  ToolCall,
  ToolDefinition,
  ToolOrigin,
  ToolSource,
} from '@tool-search/core';
import { ToolSearchError } from '@tool-search/core';
import { isRecord } from '@tool-search/core/internal';
import type { Tool, ToolSet } from 'ai';
import { asSchema, dynamicTool, jsonSchema } from 'ai';
import type { AiSdkExecutionOptions } from './call-dispatch.js';

/**
 * What tool search knows about one AI SDK tool, kept under `metadata.toolSearch` of the
 * tool (the AI SDK never sends `metadata` to the model). {@link toolSetFromDefinitions}
 * writes it; {@link toolDefinitionsFromToolSet} reads it.
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
  /**
   * MCP annotations (`readOnlyHint`, `destructiveHint`, ...): approval rules and the
   * program policy (read-only tools by default) read them.
   */
  annotations?: ToolAnnotations;
}

/** Options of {@link toolDefinitionsFromToolSet}. */
export interface ToolSetLabels {
  /**
   * The source of a tool that says none in its `metadata.toolSearch`. An AI SDK tool
   * set is usually the app's own plugin tools, which may be deferred.
   * @defaultValue 'plugin'
   */
  source?: ToolSource;
  /** Names of tools that are built in (`source: 'core'`): never deferred. */
  core?: Iterable<string>;
  /** Names of tools that stay visible whatever their source (`alwaysLoad`). */
  pinned?: Iterable<string>;
  /** Toolsets by name, each with the names of the tools it holds, e.g. `{ github: ['create_issue'] }`. */
  toolsets?: Readonly<Record<string, Iterable<string>>>;
}

const SOURCES: ReadonlySet<string> = new Set(['core', 'mcp', 'plugin']);

/**
 * Whether an AI SDK tool is a function tool whose schema tool search can carry (not a
 * provider-defined tool such as a platform's own tool search or web search).
 *
 * @param tool - an entry of a `ToolSet`
 * @returns true for a function or dynamic tool
 * @throws nothing
 */
export function isFunctionTool(tool: unknown): boolean {
  if (!isRecord(tool)) return false;
  return tool['type'] === undefined || tool['type'] === 'function' || tool['type'] === 'dynamic';
}

/**
 * The tool search labels of an AI SDK tool.
 *
 * @param tool - an entry of a `ToolSet`
 * @returns its `metadata.toolSearch`, the fields of the right types only
 * @throws nothing
 */
export function readToolSearchMetadata(tool: unknown): ToolSearchMetadata {
  const metadata = isRecord(tool) && isRecord(tool['metadata']) ? tool['metadata'] : undefined;
  const raw = metadata && isRecord(metadata['toolSearch']) ? metadata['toolSearch'] : undefined;
  const labels: ToolSearchMetadata = {};
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

function toolsetIndex(labels: ToolSetLabels): Map<string, string> {
  const index = new Map<string, string>();
  for (const [toolset, names] of Object.entries(labels.toolsets ?? {})) {
    for (const name of names) if (!index.has(name)) index.set(name, toolset);
  }
  return index;
}

async function schemaOf(name: string, tool: Tool): Promise<Record<string, unknown>> {
  let schema: unknown;
  try {
    // A zod or Standard Schema input converts lazily, and its JSON Schema may be a promise.
    schema = await asSchema(tool.inputSchema as Parameters<typeof asSchema>[0]).jsonSchema;
  } catch (error) {
    throw new ToolSearchError(
      'invalid_tool_definition',
      `The input schema of the AI SDK tool '${name}' could not be converted to JSON Schema. Give it a zod schema, a Standard Schema or jsonSchema({...}).`,
      { cause: error, data: { tool: name } },
    );
  }
  if (!isRecord(schema)) {
    throw new ToolSearchError(
      'invalid_tool_definition',
      `The input schema of the AI SDK tool '${name}' is not a JSON Schema object.`,
      { data: { tool: name } },
    );
  }
  return schema;
}

/**
 * Converts an AI SDK `ToolSet` into tool search's `ToolDefinition`s, in the set's order,
 * for the catalog, the activation decision and the bridge. Each tool's input schema is
 * converted with the AI SDK's own `asSchema` (zod, Standard Schema or `jsonSchema`; the
 * conversion may be asynchronous). Labels come from each tool's `metadata.toolSearch`
 * first, then from `labels`. Provider-defined tools (a platform's own web search, tool
 * search, ...) are left out: they are not the app's to defer.
 *
 * @example
 * ```ts
 * const definitions = await toolDefinitionsFromToolSet(tools, {
 *   toolsets: { github: ['create_issue', 'list_issues'] },
 *   core: ['read_file'],
 * });
 * ```
 *
 * @param tools - the AI SDK tool set
 * @param labels - sources, pins and toolsets for tools whose metadata says none
 * @returns one definition per function tool
 * @throws `ToolSearchError` `invalid_tool_definition` when a tool's input schema cannot be
 * converted to a JSON Schema object
 */
export async function toolDefinitionsFromToolSet(
  tools: ToolSet,
  labels: ToolSetLabels = {},
): Promise<ToolDefinition[]> {
  const core = new Set(labels.core ?? []);
  const pinned = new Set(labels.pinned ?? []);
  const toolsets = toolsetIndex(labels);
  const entries = Object.entries(tools).filter(([, tool]) => isFunctionTool(tool));
  return Promise.all(
    entries.map(async ([name, tool]) => {
      const meta = readToolSearchMetadata(tool);
      const definition: ToolDefinition = {
        name,
        inputSchema: await schemaOf(name, tool),
        source: core.has(name) ? 'core' : (meta.source ?? labels.source ?? 'plugin'),
      };
      const description = (tool as { description?: unknown }).description;
      if (typeof description === 'string') definition.description = description;
      const toolset = meta.toolset ?? toolsets.get(name);
      if (toolset !== undefined) definition.toolset = toolset;
      if (meta.alwaysLoad === true || pinned.has(name)) definition.alwaysLoad = true;
      if (meta.origin) definition.origin = meta.origin;
      if (meta.annotations) definition.annotations = meta.annotations;
      return definition;
    }),
  );
}

/** Runs one tool of {@link toolSetFromDefinitions}: the call, with the AI SDK's execution options. */
export type ToolSetExecute = (call: ToolCall, options: AiSdkExecutionOptions) => unknown;

/**
 * Converts tool search's `ToolDefinition`s into an AI SDK `ToolSet` of dynamic tools, in
 * order, each carrying its labels (toolset, source, pin, origin) in
 * `metadata.toolSearch`, so that {@link toolDefinitionsFromToolSet} reads them back
 * unchanged. `execute` runs every tool, e.g. through an MCP pool or a dispatcher.
 *
 * @example
 * ```ts
 * const tools = toolSetFromDefinitions(definitions, (call, { abortSignal }) =>
 *   pool.callTool(call.name, call.arguments, { signal: abortSignal }));
 * ```
 *
 * @param definitions - the tools
 * @param execute - runs a call of any of them
 * @returns a `ToolSet` keyed by tool name
 * @throws `ToolSearchError` `invalid_argument` when two definitions share a name
 */
export function toolSetFromDefinitions(
  definitions: readonly ToolDefinition[],
  execute: ToolSetExecute,
): ToolSet {
  const tools: ToolSet = {};
  for (const definition of definitions) {
    if (Object.hasOwn(tools, definition.name)) {
      throw new ToolSearchError(
        'invalid_argument',
        `toolSetFromDefinitions: two tools are named '${definition.name}'; tool names must be unique.`,
        { data: { tool: definition.name } },
      );
    }
    const toolSearch: Record<string, unknown> = {};
    if (definition.toolset !== undefined) toolSearch['toolset'] = definition.toolset;
    if (definition.source !== undefined) toolSearch['source'] = definition.source;
    if (definition.alwaysLoad === true) toolSearch['alwaysLoad'] = true;
    if (definition.origin) toolSearch['origin'] = { ...definition.origin };
    if (definition.annotations) toolSearch['annotations'] = { ...definition.annotations };
    const name = definition.name;
    const tool = dynamicTool({
      description: definition.description ?? '',
      inputSchema: jsonSchema(definition.inputSchema as Parameters<typeof jsonSchema>[0]),
      execute: (input, options) =>
        execute({ id: options.toolCallId, name, arguments: isRecord(input) ? input : {} }, options),
    });
    tools[name] = Object.assign(tool, { metadata: { toolSearch } }) as Tool;
  }
  return tools;
}
