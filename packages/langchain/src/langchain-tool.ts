import type { CallbackManagerForToolRun } from '@langchain/core/callbacks/manager';
import { ToolMessage } from '@langchain/core/messages';
import type { StructuredToolInterface, ToolRunnableConfig } from '@langchain/core/tools';
import { DynamicStructuredTool } from '@langchain/core/tools';
import type { JsonSchemaObject, ToolDefinition } from '@tool-search/core';
import { isRecord, TOOL_CALL } from '@tool-search/core/internal';

/** How a LangChain tool of this package runs one call: the input and the run's config. */
export type ToolRun = (input: unknown, config: ToolRunnableConfig) => Promise<unknown>;

/**
 * The id of the model's tool call a LangChain tool is running, when LangChain gave one
 * (`ToolNode` invokes a tool with the model's `ToolCall`; LangChain's agent passes
 * `toolCallId` too).
 *
 * @param config - the run's config
 * @returns the id, or undefined
 * @throws nothing
 */
export function toolCallIdOf(config: ToolRunnableConfig | undefined): string | undefined {
  const id = config?.toolCall?.id ?? (config as { toolCallId?: unknown } | undefined)?.toolCallId;
  return typeof id === 'string' ? id : undefined;
}

// `tool_call` takes its arguments as an object or as JSON text: the bridge parses and
// answers both (with its own error texts), so LangChain's schema check must let both in.
function loosenCallSchema(schema: JsonSchemaObject): JsonSchemaObject {
  const widen = (properties: unknown) => {
    if (!isRecord(properties) || !isRecord(properties['arguments'])) return properties;
    return { ...properties, arguments: { ...properties['arguments'], type: ['object', 'string'] } };
  };
  const properties = widen(schema.properties) as Record<string, unknown>;
  const calls = properties?.['calls'];
  if (isRecord(calls) && isRecord(calls['items'])) {
    properties['calls'] = {
      ...calls,
      items: { ...calls['items'], properties: widen(calls['items']['properties']) },
    };
  }
  return { ...schema, properties } as JsonSchemaObject;
}

/**
 * A LangChain tool of one of our definitions (a bridge tool, `tool_program`, or a fallback
 * that answers a name the model was not given), whose runs all go to `run`.
 *
 * @param definition - the model-facing definition
 * @param run - answers a call
 * @returns the LangChain tool
 * @throws nothing
 */
export function ownTool(definition: ToolDefinition, run: ToolRun): DynamicStructuredTool {
  const schema =
    definition.name === TOOL_CALL
      ? loosenCallSchema(definition.inputSchema)
      : definition.inputSchema;
  return new DynamicStructuredTool({
    name: definition.name,
    description: definition.description ?? '',
    schema: schema as Record<string, unknown>,
    func: (input: unknown, _runManager?: CallbackManagerForToolRun, config?: ToolRunnableConfig) =>
      run(input, config ?? {}) as Promise<never>,
  });
}

/**
 * A refused direct call as a LangChain `ToolMessage` with `status: 'error'`, so that the
 * graph and its tracing see a failed call; without an id, the error object itself.
 *
 * @param output - the error object the model reads
 * @param name - the tool's name
 * @param toolCallId - the model's call id
 * @returns the message, or the object
 * @throws nothing
 */
export function errorOutput(
  output: unknown,
  name: string,
  toolCallId: string | undefined,
): unknown {
  if (toolCallId === undefined) return output;
  return new ToolMessage({
    content: JSON.stringify(output),
    tool_call_id: toolCallId,
    name,
    status: 'error',
  });
}

/**
 * The LangChain tool the model calls for one of your tools: the same name, description,
 * schema (LangChain checks the input against it, as it would for the tool itself) and
 * metadata, whose runs go to `run` (the setup's dispatch) instead of the tool.
 *
 * @param tool - your tool
 * @param run - runs a call of it
 * @returns the wrapping tool
 * @throws nothing
 */
export function wrapDirect(tool: StructuredToolInterface, run: ToolRun): DynamicStructuredTool {
  return new DynamicStructuredTool({
    name: tool.name,
    description: tool.description,
    schema: tool.schema as Record<string, unknown>,
    ...(isRecord(metadataOf(tool))
      ? { metadata: metadataOf(tool) as Record<string, unknown> }
      : {}),
    func: (input: unknown, _runManager?: CallbackManagerForToolRun, config?: ToolRunnableConfig) =>
      run(input, config ?? {}) as Promise<never>,
  });
}

// Every LangChain tool class carries `metadata`; the interface does not declare it.
function metadataOf(tool: StructuredToolInterface): unknown {
  return (tool as { metadata?: unknown }).metadata;
}
