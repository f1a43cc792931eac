/**
 * Tool search on the Anthropic Messages API's own deferred loading: deferred tools go
 * into the request with `defer_loading: true`, and either our search tool (`client`,
 * answered by our catalog with `tool_reference` blocks) or Anthropic's server search
 * tool (`hosted`) loads them; the model then calls each tool by its own name.
 *
 * @example
 * ```ts
 * const prepared = await prepareAnthropicTools(tools, { model: 'claude-sonnet-5-5', contextWindow: 200_000 });
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
import type { AnthropicToolOutput, ToolDefinition } from '@tool-search/core';
import { ANTHROPIC_TOOL_NAME_RULES, ToolSearchError, toAnthropicTool } from '@tool-search/core';
import { checkAnthropicRequest } from './anthropic-check.js';
import {
  DEFAULT_SEARCH_TOOL_NAME,
  type PreparedTools,
  type PrepareOptions,
  planDeferral,
  readSearchRequest,
  requireClientMode,
  searchDeferred,
  searchToolParameters,
} from './plan.js';
import { preparedBase, preparedNames, preparedOffOrBridge } from './prepared-base.js';
import { settleProgrammatic } from './programmatic.js';
import { type BridgeAssemblyShape, settleMode } from './settle-mode.js';

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
  /**
   * Who may call the tool, with the `programmatic` option: `direct` (the model) and the
   * code execution tool, for a tool the program policy allows; absent (direct only) else.
   */
  allowed_callers?: ('direct' | typeof ANTHROPIC_CODE_EXECUTION)[];
}

/** The code execution tool version programs run in, and the caller type of their calls. */
export const ANTHROPIC_CODE_EXECUTION = 'code_execution_20260120';

/**
 * Anthropic's code execution tool (`Anthropic.CodeExecutionTool20260120`), sent with the
 * `programmatic` option: the model's programs run in its container and call the tools
 * whose `allowed_callers` name it.
 */
export interface AnthropicCodeExecutionTool {
  type: typeof ANTHROPIC_CODE_EXECUTION;
  name: 'code_execution';
  cache_control?: AnthropicCacheControl;
}

/**
 * A tool of an Anthropic request as {@link prepareAnthropicTools} builds it: a client
 * tool (`Anthropic.Tool`), a server search tool or the code execution tool; assignable to `Anthropic.ToolUnion`.
 */
export type AnthropicRequestTool =
  | AnthropicClientTool
  | AnthropicServerSearchTool
  | AnthropicCodeExecutionTool;

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
    input_schema: searchToolParameters(limits, 'tool'),
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
  const names = preparedNames(tools, ANTHROPIC_TOOL_NAME_RULES);
  const programs = settleProgrammatic(plan.tools, options.programmatic, ANTHROPIC_CODE_EXECUTION);
  const convert = (tool: ToolDefinition): AnthropicClientTool => {
    const out: AnthropicClientTool = toAnthropicTool({
      ...tool,
      name: names.toProvider(tool.name),
    });
    if (tool.inputExamples !== undefined) out.input_examples = tool.inputExamples;
    const callers = programs?.callersOf(tool.name);
    if (callers !== undefined)
      out.allowed_callers = callers as AnthropicClientTool['allowed_callers'];
    return out;
  };
  const settled = settleMode('anthropic', plan, options);
  const report = (sent: readonly ToolDefinition[]) => ({
    programmatic: programs?.report(sent.map((tool) => tool.name)),
  });
  const base = preparedBase(plan, settled, names, options);
  const finish = (requestTools: AnthropicRequestTool[]) => {
    const codeExecution: AnthropicCodeExecutionTool[] =
      programs === undefined ? [] : [{ type: ANTHROPIC_CODE_EXECUTION, name: 'code_execution' }];
    const out = withCacheBreakpoint([...requestTools, ...codeExecution], options.cacheControl);
    checkAnthropicRequest({ tools: out });
    return out;
  };

  if (settled.kind !== 'native') {
    return preparedOffOrBridge(plan, settled, base, programs, (sent) => finish(sent.map(convert)));
  }
  const deferred = plan.deferrable.map((tool) => tool.name);
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
  return {
    ...base,
    ...report(plan.tools),
    mode: settled.mode,
    tools: requestTools,
    deferred,
    searchToolName,
  };
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
  requireClientMode(prepared, 'answerAnthropicToolSearch');
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

export type { AnthropicRequestShape } from './anthropic-check.js';
export { checkAnthropicRequest } from './anthropic-check.js';
export { toolSearchErrorFromAnthropic } from './anthropic-errors.js';
export type {
  AnthropicMessageShape,
  AnthropicProgramState,
  AnthropicToolUse,
  DispatchAnthropicOptions,
} from './anthropic-program-calls.js';
export {
  createAnthropicProgramState,
  dispatchAnthropicToolUse,
  routeAnthropicToolUse,
} from './anthropic-program-calls.js';
export type { AnthropicToolResult } from './anthropic-results.js';
export { toAnthropicToolResult, toolCallFromAnthropic } from './anthropic-results.js';
export type {
  AnthropicToolAddition,
  AnthropicToolLog,
  AnthropicToolRemoval,
} from './anthropic-tool-changes.js';
export { ANTHROPIC_TOOL_CHANGE_BETAS, createAnthropicToolLog } from './anthropic-tool-changes.js';
export type { PreparedTools, PrepareOptions } from './plan.js';
