/**
 * Tool search on the Anthropic Messages API's own deferred loading: deferred tools go
 * into the request with `defer_loading: true`, and either our search tool (`client`,
 * answered by our catalog with `tool_reference` blocks) or Anthropic's server search
 * tool (`hosted`) loads them; the model then calls each tool by its own name.
 *
 * @example
 * ```ts
 * const prepared = await prepareAnthropicTools(tools, { model: 'claude-sonnet-4-5', contextWindow: 200_000 });
 * const message = await client.messages.create({ model, max_tokens, messages, tools: prepared.tools });
 * for (const block of message.content) {
 *   if (block.type !== 'tool_use') continue;
 *   if (block.name === prepared.searchToolName) results.push(await answerAnthropicToolSearch(prepared, block));
 *   else results.push(await run(prepared.names.fromProvider(block.name) ?? block.name, block.input));
 * }
 * ```
 *
 * @packageDocumentation
 */
import type { AnthropicToolOutput, ToolCall, ToolDefinition } from '@tool-search/core';
import {
  ANTHROPIC_TOOL_NAME_RULES,
  createToolNameMap,
  ToolSearchError,
  toAnthropicTool,
} from '@tool-search/core';
import { BRIDGE_TOOL_NAMES } from '@tool-search/core/internal';
import {
  DEFAULT_SEARCH_TOOL_NAME,
  type PreparedTools,
  type PrepareOptions,
  planDeferral,
  readSearchRequest,
  searchDeferred,
} from './plan.js';
import { type BridgeAssemblyShape, settleMode } from './settle-mode.js';
import { renderToolOutcome } from './tool-outcome.js';

/** A prompt-cache breakpoint (`Anthropic.CacheControlEphemeral`). */
export interface AnthropicCacheControl {
  type: 'ephemeral';
  /** How long the cache lives. @defaultValue '5m' (the API's) */
  ttl?: '5m' | '1h';
}

/** Anthropic's server-side search tools (`hosted` mode). */
export type AnthropicServerSearchTool = (
  | { type: 'tool_search_tool_bm25_20251119'; name: 'tool_search_tool_bm25' }
  | { type: 'tool_search_tool_regex_20251119'; name: 'tool_search_tool_regex' }
) & { cache_control?: AnthropicCacheControl };

/**
 * A client tool as {@link prepareAnthropicTools} sends it (`Anthropic.Tool`): with
 * `input_examples` from the definition's `inputExamples`, and the cache breakpoint when
 * it is the last tool that is not deferred.
 */
export interface AnthropicClientTool extends AnthropicToolOutput {
  input_examples?: Record<string, unknown>[];
  cache_control?: AnthropicCacheControl;
}

/**
 * A tool of an Anthropic request as {@link prepareAnthropicTools} builds it: a client
 * tool (`Anthropic.Tool`) or a server search tool; assignable to `Anthropic.ToolUnion`.
 */
export type AnthropicRequestTool = AnthropicClientTool | AnthropicServerSearchTool;

/** A `tool_reference` block (`Anthropic.ToolReferenceBlockParam`): loads one deferred tool. */
export interface AnthropicToolReference {
  type: 'tool_reference';
  /** The provider's name of a deferred tool of the same request. */
  tool_name: string;
}

/**
 * The answer to a call of our search tool, an `Anthropic.ToolResultBlockParam`:
 * `tool_reference` blocks of the tools found, or a text when nothing was found or the
 * call was malformed (then `is_error` is true).
 */
export interface AnthropicToolSearchResult {
  type: 'tool_result';
  tool_use_id: string;
  content: Array<AnthropicToolReference | { type: 'text'; text: string }>;
  is_error?: boolean;
}

/** Options of {@link prepareAnthropicTools}. */
export interface PrepareAnthropicOptions<B extends BridgeAssemblyShape = BridgeAssemblyShape>
  extends PrepareOptions<B> {
  /** Anthropic's server search tool in `hosted` mode. @defaultValue 'bm25' */
  hosted?: 'bm25' | 'regex';
  /**
   * A prompt-cache breakpoint for the tools, put on the last tool that is not deferred
   * (the search tool in `client` and `hosted` mode): the API rejects a deferred tool
   * that carries `cache_control`, and deferred tools are not part of the cached prefix
   * anyway (the platform appends what a search loads). @defaultValue none
   */
  cacheControl?: AnthropicCacheControl;
}

/** The tool result of a tool call (`Anthropic.ToolResultBlockParam`). */
export interface AnthropicToolResult {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
  is_error?: boolean;
}

const NAME_PATTERN = /^[a-zA-Z0-9_-]{1,128}$/;

function searchToolDefinition(
  name: string,
  limits: { fallback: number; max: number },
): AnthropicToolOutput {
  return {
    name,
    description:
      'Search the tools that are not loaded yet and load the ones you need. Describe the task in a few words ' +
      `(for example "create a github issue"); the best matches, ${limits.fallback} by default and at most ` +
      `${limits.max}, are loaded, and you then call them directly by their names. Search again with other ` +
      'words when nothing fits.',
    input_schema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What the tool should do, in a few words.' },
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: limits.max,
          description: `How many tools to load (default ${limits.fallback}).`,
        },
      },
      required: ['query'],
    },
  };
}

function serverSearchTool(kind: 'bm25' | 'regex' | undefined): AnthropicServerSearchTool {
  return kind === 'regex'
    ? { type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' }
    : { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' };
}

/**
 * Builds the `tools` of an Anthropic Messages request. The decision is the one of every
 * mode (and of the bridge): core tools, tools of unknown source and pinned tools are
 * never deferred; the deferrable tools are deferred when their estimated tokens reach
 * the threshold. Then, by mode:
 * - `off` (below the threshold, or `auto` for a model without native tool search and no
 *   `bridge` option): every tool, as it is; `prepared.reason` says which, and a fallback
 *   is reported once through `logger`.
 * - `client`: every tool, the deferred ones with `defer_loading: true`, and our search
 *   tool (`searchToolName`); answer its calls with {@link answerAnthropicToolSearch}.
 * - `hosted`: the same with Anthropic's `tool_search_tool_bm25_20251119` (or `_regex_`)
 *   instead of ours.
 * - `bridge`: with `bridge: assembleTools` (of `@tool-search/bridge`), the visible tools
 *   and the three bridge tools, and `prepared.bridge` to answer them with
 *   `handleBridgeCall`; without it, the visible tools only (and a warning).
 *
 * Answer a real tool's call with {@link toolCallFromAnthropic} and
 * {@link toAnthropicToolResult}. With `cacheControl`, the breakpoint goes on the last
 * tool that is not deferred. The tools of a request are byte-identical from turn to turn
 * while the tools passed in do not change, so the prompt cache holds.
 *
 * Tools named like the bridge tools (`tool_search`, `tool_describe`, `tool_call`) are
 * stale ones of an earlier bridge assembly and are dropped, as `assembleTools` drops them.
 * Only the tools passed in are ever sent or found: pass the session's scoped list
 * (`scopeTools` of `@tool-search/toolsets`). Names that break Anthropic's rule are
 * mapped (see {@link PreparedTools.names}). The request is checked as the API checks it
 * (see {@link checkAnthropicRequest}).
 *
 * @param tools - the session's tools, already scoped
 * @param options - see {@link PrepareAnthropicOptions}
 * @returns the {@link PreparedTools}
 * @throws `ToolSearchError` `duplicate_tool_name` when two tools share a name or one takes the search tool's name; `invalid_argument` for a search tool name Anthropic does not accept, an unknown mode, or a list that is not an array; `invalid_tool_definition` for a schema whose type is not `object` or an entry without a string name
 */
export async function prepareAnthropicTools<B extends BridgeAssemblyShape = never>(
  tools: readonly ToolDefinition[],
  options: PrepareAnthropicOptions<B> = {},
): Promise<PreparedTools<AnthropicRequestTool, B>> {
  const plan = planDeferral(tools, options);
  // The bridge's names are in the map: `bridge` mode sends them, and no tool may take them.
  const names = createToolNameMap([...tools, ...BRIDGE_TOOL_NAMES], ANTHROPIC_TOOL_NAME_RULES);
  const convert = (tool: ToolDefinition): AnthropicClientTool => {
    const out: AnthropicClientTool = toAnthropicTool({
      ...tool,
      name: names.toProvider(tool.name),
    });
    if (tool.inputExamples !== undefined) out.input_examples = tool.inputExamples;
    return out;
  };
  const settled = settleMode('anthropic', plan, options);
  const base = {
    decision: plan.decision,
    catalog: plan.catalog,
    config: plan.config,
    names,
    reason: settled.reason,
    strict: false,
    searchToolName: undefined,
    bridge: undefined,
  };
  const finish = (requestTools: AnthropicRequestTool[]) =>
    withCacheBreakpoint(requestTools, options.cacheControl);

  if (settled.kind === 'off') {
    return { ...base, mode: 'off', tools: finish(plan.tools.map(convert)), deferred: [] };
  }
  const deferred = plan.deferrable.map((tool) => tool.name);
  if (settled.kind === 'bridge') {
    const shown = settled.assembly?.tools ?? plan.visible;
    return {
      ...base,
      mode: 'bridge',
      tools: finish(shown.map(convert)),
      deferred,
      bridge: settled.assembly,
    };
  }
  const visible = plan.visible.map(convert);
  const deferredTools = plan.deferrable.map((tool) => ({ ...convert(tool), defer_loading: true }));
  let searchTool: AnthropicRequestTool;
  let searchToolName: string | undefined;
  if (settled.mode === 'client') {
    searchToolName = options.searchToolName ?? DEFAULT_SEARCH_TOOL_NAME;
    if (!NAME_PATTERN.test(searchToolName)) {
      throw new ToolSearchError(
        'invalid_argument',
        `searchToolName '${searchToolName}' breaks Anthropic's rule ^[a-zA-Z0-9_-]{1,128}$. Choose another name.`,
        { data: { field: 'searchToolName' } },
      );
    }
    searchTool = searchToolDefinition(searchToolName, {
      fallback: plan.config.searchDefaultLimit,
      max: plan.config.maxSearchLimit,
    });
  } else {
    searchTool = serverSearchTool(options.hosted);
  }
  const requestTools = finish([...visible, ...deferredTools, searchTool]);
  checkAnthropicRequest({ tools: requestTools });
  return { ...base, mode: settled.mode, tools: requestTools, deferred, searchToolName };
}

// The breakpoint goes on the last tool that is not deferred: the API rejects it on a
// deferred one, and the tools after it are deferred, so it still closes the tools section.
function withCacheBreakpoint(
  tools: AnthropicRequestTool[],
  cacheControl: AnthropicCacheControl | undefined,
): AnthropicRequestTool[] {
  if (cacheControl === undefined) return tools;
  let index = tools.length - 1;
  while (index >= 0 && (tools[index] as { defer_loading?: boolean }).defer_loading === true) {
    index -= 1;
  }
  if (index < 0) return tools;
  const out = [...tools];
  out[index] = { ...tools[index], cache_control: { ...cacheControl } } as AnthropicRequestTool;
  return out;
}

/**
 * The call a `tool_use` block stands for, in the session's names: the name mapped back
 * with `prepared.names`, the input as the arguments. Dispatch it as usual.
 *
 * @param prepared - the preparation of the request the block came from
 * @param toolUse - the `tool_use` block (`id`, `name`, `input`)
 * @returns the call, `{ id, name, arguments }`
 * @throws nothing (an input that is not an object becomes `{}`, as the bridge reads it)
 */
export function toolCallFromAnthropic(
  prepared: Pick<PreparedTools<AnthropicRequestTool>, 'names'>,
  toolUse: { id: string; name: string; input: unknown },
): ToolCall {
  const input = toolUse.input;
  return {
    id: toolUse.id,
    name: prepared.names.fromProvider(toolUse.name) ?? toolUse.name,
    arguments:
      typeof input === 'object' && input !== null && !Array.isArray(input)
        ? (input as Record<string, unknown>)
        : {},
  };
}

/**
 * The `tool_result` block for what a tool call came to, in every mode: a dispatcher
 * outcome (`DispatchResult` of `@tool-search/hooks`) gives the tool's result alone, or
 * the refusal with `is_error: true` (denied, failed, cancelled); a bridge answer
 * (`handleBridgeCall`, `bridge` mode) gives its content, a refusal with `is_error: true`.
 * The call's arguments are never echoed back.
 *
 * @example
 * ```ts
 * results.push(toAnthropicToolResult(block.id, await dispatch(toolCallFromAnthropic(prepared, block))));
 * ```
 *
 * @param toolUseId - the `tool_use` block's `id`
 * @param outcome - what the dispatcher or the bridge answered
 * @returns the `tool_result` block for the next user message
 * @throws nothing
 */
export function toAnthropicToolResult(toolUseId: string, outcome: unknown): AnthropicToolResult {
  const { text, isError } = renderToolOutcome(outcome);
  const result: AnthropicToolResult = {
    type: 'tool_result',
    tool_use_id: toolUseId,
    content: text,
  };
  if (isError) result.is_error = true;
  return result;
}

/**
 * Answers a call of our search tool (`client` mode) with a `tool_result` whose content
 * is one `tool_reference` block per tool found, best first: the platform then loads
 * those tools, and the model calls them by name. The limit is the model's `limit`
 * clamped to [1, `config.maxSearchLimit`] (20 by default), else
 * `config.searchDefaultLimit` (5). Only deferred tools of this preparation are ever
 * named. A call without a query answers `query is required` (`is_error: true`); a search
 * that finds nothing answers a text saying so.
 *
 * @param prepared - the preparation of the request the call came from
 * @param toolUse - the `tool_use` block (`id`, `name`, `input`)
 * @returns the `tool_result` block for the next user message
 * @throws `ToolSearchError` `invalid_argument` when `prepared` is not in `client` mode or the block is missing or not a call of its search tool; `ranker_failed` when the ranker fails
 */
export async function answerAnthropicToolSearch(
  prepared: PreparedTools<AnthropicRequestTool>,
  toolUse: { id: string; name: string; input: unknown },
): Promise<AnthropicToolSearchResult> {
  if (prepared.mode !== 'client' || prepared.searchToolName === undefined) {
    throw new ToolSearchError(
      'invalid_argument',
      `answerAnthropicToolSearch needs a preparation in 'client' mode, got '${prepared.mode}'.`,
    );
  }
  if (typeof toolUse !== 'object' || toolUse === null) {
    throw new ToolSearchError(
      'invalid_argument',
      'answerAnthropicToolSearch needs the tool_use block.',
    );
  }
  if (toolUse.name !== prepared.searchToolName) {
    throw new ToolSearchError(
      'invalid_argument',
      `'${toolUse.name}' is not the search tool '${prepared.searchToolName}'. Dispatch it as a tool call.`,
      { data: { tool: toolUse.name } },
    );
  }
  const request = readSearchRequest(toolUse.input, prepared.config);
  if (!request.ok) {
    return {
      type: 'tool_result',
      tool_use_id: toolUse.id,
      content: [{ type: 'text', text: request.error }],
      is_error: true,
    };
  }
  const found = await searchDeferred(prepared, request.query, request.limit);
  if (found.length === 0) {
    return {
      type: 'tool_result',
      tool_use_id: toolUse.id,
      content: [
        {
          type: 'text',
          // The query is not echoed: it may name a tool outside the session, which no answer may name.
          text: 'No tool matches this search. Search again with other words, or use the tools you already have.',
        },
      ],
    };
  }
  return {
    type: 'tool_result',
    tool_use_id: toolUse.id,
    content: found.map((tool) => ({
      type: 'tool_reference',
      tool_name: prepared.names.toProvider(tool.name),
    })),
  };
}

/** What {@link checkAnthropicRequest} reads: the request's tools and, if given, its messages. */
export interface AnthropicRequestShape {
  tools?: readonly {
    name?: string;
    defer_loading?: boolean | null;
    type?: string | null;
    cache_control?: unknown;
  }[];
  messages?: readonly { role: string; content: unknown }[];
}

function referencesIn(messages: AnthropicRequestShape['messages']): string[] {
  const names: string[] = [];
  for (const message of messages ?? []) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as unknown[]) {
      if (typeof block !== 'object' || block === null) continue;
      const record = block as Record<string, unknown>;
      const inner =
        record['type'] === 'tool_result'
          ? record['content']
          : record['type'] === 'tool_search_tool_result'
            ? (record['content'] as Record<string, unknown> | undefined)?.['tool_references']
            : undefined;
      if (!Array.isArray(inner)) continue;
      for (const item of inner as Record<string, unknown>[]) {
        if (item?.['type'] === 'tool_reference') names.push(String(item['tool_name']));
      }
    }
  }
  return names;
}

/**
 * Checks an Anthropic request before it is sent, as the API does: tool names are
 * unique, at least one tool is not deferred, no deferred tool carries `cache_control`,
 * and every `tool_reference` in the messages
 * names a deferred tool of this same request. {@link prepareAnthropicTools} checks its
 * tools; check again with the messages when you resend a conversation with tools
 * prepared anew (a tool found earlier may have left the session).
 *
 * @param request - the request's `tools`, and its `messages` to check the references
 * @returns nothing
 * @throws `ToolSearchError` `duplicate_tool_name` when two tools share a name; `invalid_argument` when every tool is deferred, a deferred tool carries `cache_control`, or a reference names a tool that is not a deferred tool of the request (`data.tool` names it)
 */
export function checkAnthropicRequest(request: AnthropicRequestShape): void {
  const deferred = new Set<string>();
  const seen = new Set<string>();
  let loaded = 0;
  const tools = request.tools ?? [];
  for (const tool of tools) {
    if (tool.name === undefined) {
      // A tool without a name (an Anthropic toolset) is loaded, never deferred by us.
      if (tool.defer_loading !== true) loaded += 1;
      continue;
    }
    if (seen.has(tool.name)) {
      throw new ToolSearchError(
        'duplicate_tool_name',
        `Tool '${tool.name}' appears more than once in the request. Give each tool a unique name.`,
        { data: { tool: tool.name } },
      );
    }
    seen.add(tool.name);
    if (tool.defer_loading === true && tool.cache_control != null) {
      throw new ToolSearchError(
        'invalid_argument',
        `Tool '${tool.name}' is deferred and carries cache_control, which the API rejects. Put the cache breakpoint on the last tool that is not deferred (the cacheControl option of prepareAnthropicTools does).`,
        { data: { tool: tool.name } },
      );
    }
    if (tool.defer_loading === true) deferred.add(tool.name);
    else loaded += 1;
  }
  if (tools.length > 0 && loaded === 0) {
    throw new ToolSearchError(
      'invalid_argument',
      'Every tool of the request is deferred; the API needs at least one that is not (a search tool or a core tool).',
    );
  }
  for (const name of referencesIn(request.messages)) {
    if (!deferred.has(name)) {
      throw new ToolSearchError(
        'invalid_argument',
        `A tool_reference names '${name}', which is not a deferred tool of this request. Prepare the tools again with it, or drop the reference.`,
        { data: { tool: name } },
      );
    }
  }
}

export type { PreparedTools, PrepareOptions } from './plan.js';
