/**
 * Tool search on the OpenAI Responses API's own deferred loading: a `tool_search` tool
 * with `execution: 'client'` answered by our catalog with a `tool_search_output` of the
 * functions found (`client`), or OpenAI's hosted search over deferred functions grouped
 * into namespaces (`hosted`); the model then calls each function by its own name.
 * Strict-mode schemas on request, for Chat Completions tools too.
 *
 * @example
 * ```ts
 * const prepared = await prepareOpenAIResponsesTools(tools, { model: 'gpt-5.5', contextWindow: 400_000 });
 * const response = await client.responses.create({ model, input, tools: prepared.tools });
 * for (const item of response.output) {
 *   if (item.type === 'tool_search_call' && item.execution === 'client') input.push(item, await answerOpenAIToolSearch(prepared, item));
 *   if (item.type === 'function_call') input.push(item, { type: 'function_call_output', call_id: item.call_id, output: await run(prepared.names.fromProvider(item.name) ?? item.name, item.arguments) });
 * }
 * ```
 *
 * @packageDocumentation
 */
import type {
  OpenAIChatToolOutput,
  OpenAIResponsesToolOutput,
  ProviderObjectSchema,
  ToolDefinition,
  ToolNameMap,
} from '@tool-search/core';
import {
  createToolNameMap,
  OPENAI_TOOL_NAME_RULES,
  ToolSearchError,
  toOpenAIResponsesTool,
  toOpenAITool,
} from '@tool-search/core';
import {
  type PreparedTools,
  type PrepareOptions,
  planDeferral,
  readSearchRequest,
  requireClientMode,
  searchDeferred,
  searchToolParameters,
} from './plan.js';
import { preparedBase, preparedNames, preparedOffOrBridge } from './prepared-base.js';
import { preparedCallers, settleProgrammatic } from './programmatic.js';
import { type BridgeAssemblyShape, settleMode } from './settle-mode.js';
import { toStrictJsonSchema } from './strict-schema.js';

/** The Responses `tool_search` tool (`Responses.ToolSearchTool`). */
export interface OpenAIToolSearchTool {
  type: 'tool_search';
  /** `client`: we answer; absent: OpenAI's hosted search. */
  execution?: 'client' | 'server';
  description?: string;
  parameters?: ProviderObjectSchema;
}

/**
 * A function as the preparation sends it (`Responses.FunctionTool`): with the
 * `programmatic` option, a function the program policy allows carries `allowed_callers`
 * (`programmatic`, and `direct` unless the option said otherwise) and is never strict.
 */
export interface OpenAIFunctionTool extends OpenAIResponsesToolOutput {
  allowed_callers?: ('direct' | 'programmatic')[];
}

/** OpenAI's programmatic tool calling (`Responses.Tool.ProgrammaticToolCalling`). */
export interface OpenAIProgrammaticTool {
  type: 'programmatic_tool_calling';
}

/** A Responses namespace (`Responses.NamespaceTool`): deferred functions of one toolset or server. */
export interface OpenAINamespaceTool {
  type: 'namespace';
  name: string;
  description: string;
  tools: OpenAIFunctionTool[];
}

/**
 * A tool of a Responses request as {@link prepareOpenAIResponsesTools} builds it;
 * assignable to `Responses.Tool`.
 */
export type OpenAIRequestTool =
  | OpenAIFunctionTool
  | OpenAIToolSearchTool
  | OpenAINamespaceTool
  | OpenAIProgrammaticTool;

/**
 * The answer to a client `tool_search_call`: a `tool_search_output` input item
 * (`Responses.ResponseToolSearchOutputItemParam`) carrying the functions found.
 */
export interface OpenAIToolSearchOutput {
  type: 'tool_search_output';
  call_id: string | null;
  execution: 'client';
  status: 'completed';
  tools: OpenAIFunctionTool[];
}

/** Options of {@link prepareOpenAIResponsesTools}. */
export interface PrepareOpenAIOptions<B extends BridgeAssemblyShape = BridgeAssemblyShape>
  extends PrepareOptions<B> {
  /**
   * Send strict-mode functions (`strict: true`, schemas from `toStrictJsonSchema`);
   * map the arguments back with `restoreStrictArguments`. @defaultValue false
   */
  strict?: boolean;
  /**
   * The description of each namespace in `hosted` mode, by toolset (e.g. `mcp-github`)
   * or server name; the model sees only these until it searches. @defaultValue a line
   * naming the group and its first tools
   */
  namespaceDescriptions?: Readonly<Record<string, string>>;
}

const NAMESPACE_PREVIEW = 8;

function defaultNamespaceDescription(group: string, tools: readonly ToolDefinition[]): string {
  const shown = tools.slice(0, NAMESPACE_PREVIEW).map((tool) => tool.name);
  const more = tools.length > shown.length ? `, and ${tools.length - shown.length} more` : '';
  return `Tools of ${group}: ${shown.join(', ')}${more}.`;
}

function toFunction(
  tool: ToolDefinition,
  names: ToolNameMap,
  strict: boolean,
  callers: string[] | undefined,
): OpenAIFunctionTool {
  const fn: OpenAIFunctionTool = toOpenAIResponsesTool({
    ...tool,
    name: names.toProvider(tool.name),
  });
  // A program writes the arguments against the tool's own schema: strict mode's
  // every-property-required schema would refuse its calls, so these stay non-strict.
  if (callers !== undefined) {
    return { ...fn, allowed_callers: callers as OpenAIFunctionTool['allowed_callers'] };
  }
  if (!strict) return fn;
  return {
    ...fn,
    parameters: toStrictJsonSchema(tool.inputSchema) as ProviderObjectSchema,
    strict: true,
  };
}

function clientSearchTool(limits: { fallback: number; max: number }): OpenAIToolSearchTool {
  return {
    type: 'tool_search',
    execution: 'client',
    description:
      'Search the functions that are not loaded yet and load the ones you need. Describe the task in a few ' +
      `words (for example "create a github issue"); the best matches, ${limits.fallback} by default and at ` +
      `most ${limits.max}, are loaded, and you then call them by their names.`,
    parameters: searchToolParameters(limits, 'function', true),
  };
}

// A toolset is the user's grouping; a server the fallback; a tool with neither stays a loose function.
function groupOf(tool: ToolDefinition): string | undefined {
  return tool.toolset ?? tool.origin?.server;
}

function namespaces(
  deferrable: readonly ToolDefinition[],
  convert: (tool: ToolDefinition) => OpenAIFunctionTool,
  options: PrepareOpenAIOptions<BridgeAssemblyShape>,
): OpenAIRequestTool[] {
  const groups = new Map<string, ToolDefinition[]>();
  const loose: ToolDefinition[] = [];
  for (const tool of deferrable) {
    const group = groupOf(tool);
    if (group === undefined) loose.push(tool);
    else groups.set(group, [...(groups.get(group) ?? []), tool]);
  }
  const groupNames = createToolNameMap([...groups.keys()], OPENAI_TOOL_NAME_RULES);
  const out: OpenAIRequestTool[] = [];
  for (const [group, members] of groups) {
    out.push({
      type: 'namespace',
      name: groupNames.toProvider(group),
      description:
        options.namespaceDescriptions?.[group] ?? defaultNamespaceDescription(group, members),
      tools: members.map((tool) => ({ ...convert(tool), defer_loading: true })),
    });
  }
  for (const tool of loose) out.push({ ...convert(tool), defer_loading: true });
  return out;
}

/**
 * Builds the `tools` of an OpenAI Responses request. The decision is the one of every
 * mode (and of the bridge): core tools, tools of unknown source and pinned tools are
 * never deferred; the deferrable tools are deferred when their estimated tokens reach
 * the threshold. Then, by mode:
 * - `off` (below the threshold, or `auto` for a model without native tool search and no
 *   `bridge` option): every tool as a function; `prepared.reason` says which, and a
 *   fallback is reported once through `logger`.
 * - `client`: the tools that stay visible and a `tool_search` tool with
 *   `execution: 'client'`; the deferred functions are kept back until a search finds
 *   them (answer with {@link answerOpenAIToolSearch}).
 * - `hosted`: the visible functions, the deferred ones with `defer_loading: true` inside
 *   one namespace per toolset (or server), each with its description, and OpenAI's own
 *   `tool_search`.
 * - `bridge`: with `bridge: assembleTools` (of `@tool-search/bridge`), the visible
 *   functions and the three bridge tools, and `prepared.bridge` to answer them with
 *   `handleBridgeCall`; without it, the visible functions only (and a warning).
 *
 * Read a function call with {@link toolCallFromOpenAI} (names mapped back, strict
 * arguments restored) and answer it with {@link toOpenAIFunctionOutput}. Carry the whole
 * `response.output` over to the next request's input (in `hosted` mode it holds the
 * platform's search items; reasoning items and messages belong to the conversation too).
 *
 * Tools named like the bridge tools (`tool_search`, `tool_describe`, `tool_call`) are
 * stale ones of an earlier bridge assembly and are dropped, as `assembleTools` drops them.
 * Only the tools passed in are ever sent or found: pass the session's scoped list.
 * Names that break OpenAI's rule (`^[a-zA-Z0-9_-]{1,64}$`) are mapped
 * ({@link PreparedTools.names}). With `strict`, every function is a strict-mode one.
 *
 * @param tools - the session's tools, already scoped
 * @param options - see {@link PrepareOpenAIOptions}
 * @returns the {@link PreparedTools}
 * @throws `ToolSearchError` `duplicate_tool_name` when two tools share a name; `invalid_argument` for an unknown mode or a list that is not an array; `invalid_tool_definition` for a schema whose type is not `object` or an entry without a string name
 */
export async function prepareOpenAIResponsesTools<B extends BridgeAssemblyShape = never>(
  tools: readonly ToolDefinition[],
  options: PrepareOpenAIOptions<B> = {},
): Promise<PreparedTools<OpenAIRequestTool, B>> {
  const plan = planDeferral(tools, options);
  const names = preparedNames(tools, OPENAI_TOOL_NAME_RULES);
  const strict = options.strict === true;
  const programs = settleProgrammatic(plan.tools, options.programmatic, 'programmatic');
  const settled = settleMode('openai', plan, options);
  const base = preparedBase(plan, settled, names, options, strict);
  const convert = (tool: ToolDefinition) =>
    toFunction(tool, names, strict, programs?.callersOf(tool.name));
  const programTool: OpenAIRequestTool[] =
    programs === undefined ? [] : [{ type: 'programmatic_tool_calling' }];
  const report = (sent: readonly ToolDefinition[]) => ({
    programmatic: programs?.report(sent.map((tool) => tool.name)),
  });

  if (settled.kind !== 'native') {
    return preparedOffOrBridge(plan, settled, base, programs, (sent) => [
      ...sent.map(convert),
      ...programTool,
    ]);
  }
  const deferred = plan.deferrable.map((tool) => tool.name);
  const visible: OpenAIRequestTool[] = plan.visible.map(convert);
  if (settled.mode === 'client') {
    const search = clientSearchTool({
      fallback: plan.config.searchDefaultLimit,
      max: plan.config.maxSearchLimit,
    });
    return {
      ...base,
      ...report(plan.tools),
      mode: 'client',
      tools: [...visible, search, ...programTool],
      deferred,
      searchToolName: 'tool_search',
    };
  }
  const hosted: OpenAIToolSearchTool = { type: 'tool_search' };
  return {
    ...base,
    ...report(plan.tools),
    mode: 'hosted',
    tools: [...visible, ...namespaces(plan.deferrable, convert, options), hosted, ...programTool],
    deferred,
  };
}

/**
 * Answers a client `tool_search_call` (`execution: 'client'`) with a
 * `tool_search_output` item that carries the functions found, best first (strict ones
 * when the preparation was strict). The limit is the model's `limit` clamped to
 * [1, `config.maxSearchLimit`], else `config.searchDefaultLimit`. Only deferred tools of
 * this preparation are ever returned. The output has no error channel: arguments without
 * a query, or a search that finds nothing, answer with no tools.
 *
 * @param prepared - the preparation of the request the call came from
 * @param call - the `tool_search_call` item (`call_id`, `arguments` as an object or JSON text)
 * @returns the `tool_search_output` item to append to the next request's input
 * @throws `ToolSearchError` `invalid_argument` when `prepared` is not in `client` mode or the item is missing; `ranker_failed` when the ranker fails
 */
export async function answerOpenAIToolSearch(
  prepared: PreparedTools<OpenAIRequestTool>,
  call: { call_id: string | null; arguments: unknown },
): Promise<OpenAIToolSearchOutput> {
  requireClientMode(prepared, 'answerOpenAIToolSearch');
  if (typeof call !== 'object' || call === null) {
    throw new ToolSearchError(
      'invalid_argument',
      'answerOpenAIToolSearch needs the tool_search_call item.',
    );
  }
  const output: OpenAIToolSearchOutput = {
    type: 'tool_search_output',
    call_id: call.call_id,
    execution: 'client',
    status: 'completed',
    tools: [],
  };
  const request = readSearchRequest(call.arguments, prepared.config);
  if (!request.ok) return output;
  const found = await searchDeferred(prepared, request.query, request.limit);
  output.tools = found.map((tool) =>
    toFunction(
      tool,
      prepared.names,
      prepared.strict,
      preparedCallers(prepared.programmatic, tool.name),
    ),
  );
  return output;
}

/**
 * Converts a tool into a strict-mode Chat Completions function tool: `strict: true` and
 * the schema of `toStrictJsonSchema` (every property required, `additionalProperties:
 * false`, optional ones nullable). Assignable to `ChatCompletionFunctionTool`.
 *
 * @param tool - the definition
 * @returns the Chat Completions tool
 * @throws `ToolSearchError` `invalid_tool_definition` when the schema's `type` is not `object`
 */
export function toStrictOpenAITool(tool: ToolDefinition): OpenAIChatToolOutput {
  const chat = toOpenAITool(tool);
  return {
    type: 'function',
    function: {
      ...chat.function,
      parameters: toStrictJsonSchema(tool.inputSchema) as ProviderObjectSchema,
      strict: true,
    },
  };
}

export type {
  DispatchOpenAIOptions,
  OpenAIFunctionCall,
  OpenAIProgramState,
} from './openai-program-calls.js';
export {
  createOpenAIProgramState,
  dispatchOpenAIFunctionCall,
  routeOpenAIFunctionCall,
} from './openai-program-calls.js';
export type { OpenAIFunctionCallOutput } from './openai-results.js';
export { toOpenAIFunctionOutput, toolCallFromOpenAI } from './openai-results.js';
export type { PreparedTools, PrepareOptions } from './plan.js';
