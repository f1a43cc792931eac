import type { ProviderObjectSchema, ToolDefinition } from '@tool-search/core';
import { ToolSearchError } from '@tool-search/core';
import { geminiNames } from './gemini-names.js';
import {
  type PreparedTools,
  type PrepareOptions,
  planDeferral,
  readSearchRequest,
  requireClientMode,
  searchDeferred,
} from './plan.js';
import { preparedBase, preparedOffOrBridge } from './prepared-base.js';
import { type BridgeAssemblyShape, settleMode } from './settle-mode.js';

// The Interactions API's tool retrieval is in preview (since 2026-11-19) and
// `@google/genai` 3.3 has no types for it: the shapes below are ours, one place to change
// when the SDK's land. A function is the SDK's `FunctionT` plus `defer_loading`.

/** A function tool of an interaction (`FunctionT` of `@google/genai`), deferred or not. */
export interface GeminiInteractionFunction {
  type: 'function';
  name: string;
  description?: string;
  /** JSON Schema (the Interactions API takes a subset of it as it is). */
  parameters?: ProviderObjectSchema;
  /** Only the name and description reach the model until a search loads the function. */
  defer_loading?: true;
}

/** The tool retrieval tool: `client` execution asks us to search; without it, the platform searches. */
export interface GeminiToolSearchTool {
  type: 'tool_search';
  execution?: 'client' | 'server';
}

/** A tool of an interaction as {@link prepareGeminiInteractionTools} builds it. */
export type GeminiInteractionTool = GeminiInteractionFunction | GeminiToolSearchTool;

/** A `tool_search_call` step of an interaction in client mode: the model's query. */
export interface GeminiToolSearchCall {
  type?: string;
  id: string;
  arguments: unknown;
  execution?: string;
}

/** Our answer to a `tool_search_call`, an input step: the deferred functions to load, best first. */
export interface GeminiToolSearchResult {
  type: 'tool_search_result';
  call_id: string;
  tools: { name: string }[];
}

/** Options of {@link prepareGeminiInteractionTools}. */
export type PrepareGeminiInteractionOptions<B extends BridgeAssemblyShape = BridgeAssemblyShape> =
  Omit<PrepareOptions<B>, 'programmatic' | 'searchToolName'>;

function toInteractionFunction(tool: ToolDefinition, name: string): GeminiInteractionFunction {
  const out: GeminiInteractionFunction = { type: 'function', name };
  if (tool.description !== undefined && tool.description !== '') out.description = tool.description;
  out.parameters = tool.inputSchema as ProviderObjectSchema;
  return out;
}

/**
 * Builds the `tools` of a Gemini Interactions API request (`interactions.create`). The
 * decision is the one of every provider and of the bridge; then, by mode (`auto` picks by
 * model, see `DEFAULT_MODEL_CAPABILITIES`: `client` for models with tool retrieval):
 * - `off` (below the threshold, or `auto` for a model without tool retrieval and no
 *   `bridge`): every tool as a function;
 * - `client`: every tool, the deferred ones with `defer_loading: true`, and
 *   `{ type: 'tool_search', execution: 'client' }`: the model's `tool_search_call` steps
 *   are answered by our catalog with {@link answerGeminiToolSearch};
 * - `hosted`: the same with the platform's own search (`{ type: 'tool_search' }`);
 * - `bridge`: with `bridge: assembleTools`, the visible tools and the three bridge tools.
 *
 * Answer function calls with `dispatchGeminiInteractionCall`. `@google/genai` 3.3 has no
 * types for tool retrieval: pass `prepared.tools` to `interactions.create` as the SDK's
 * tool type (it sends them as they are).
 *
 * @param tools - the session's tools, already scoped
 * @param options - see {@link PrepareGeminiInteractionOptions}
 * @returns the {@link PreparedTools}
 * @throws `ToolSearchError` `invalid_argument` for an unknown mode or a list that is not an array; `duplicate_tool_name` when two tools share a name; `invalid_tool_definition` for an entry without a string name
 */
export async function prepareGeminiInteractionTools<B extends BridgeAssemblyShape = never>(
  tools: readonly ToolDefinition[],
  options: PrepareGeminiInteractionOptions<B> = {},
): Promise<PreparedTools<GeminiInteractionTool, B>> {
  const plan = planDeferral(tools, options);
  const names = geminiNames(tools);
  const settled = settleMode('gemini', plan, options);
  const base = preparedBase(plan, settled, names, options);
  const convert = (tool: ToolDefinition) =>
    toInteractionFunction(tool, names.toProvider(tool.name));
  if (settled.kind !== 'native') {
    return preparedOffOrBridge(plan, settled, base, undefined, (sent) => sent.map(convert));
  }
  const deferred = plan.deferrable.map((tool) => tool.name);
  const search: GeminiToolSearchTool =
    settled.mode === 'client'
      ? { type: 'tool_search', execution: 'client' }
      : { type: 'tool_search' };
  return {
    ...base,
    programmatic: undefined,
    mode: settled.mode,
    tools: [
      ...plan.visible.map(convert),
      ...plan.deferrable.map((tool) => ({ ...convert(tool), defer_loading: true as const })),
      search,
    ],
    deferred,
    searchToolName: settled.mode === 'client' ? 'tool_search' : undefined,
  };
}

/**
 * Answers a `tool_search_call` step (client mode) with a `tool_search_result` input step
 * naming the deferred functions found, best first: the platform then loads their schemas
 * and the model calls them by name. The limit is the model's `limit` clamped to
 * [1, `config.maxSearchLimit`], else `config.searchDefaultLimit`. Only deferred tools of
 * this preparation are ever named; arguments without a query answer with no tools.
 *
 * @param prepared - the preparation of the request the step came from
 * @param call - the `tool_search_call` step (`id`, `arguments` as an object or JSON text)
 * @returns the step to send as the next interaction's input
 * @throws `ToolSearchError` `invalid_argument` when `prepared` is not in `client` mode or the step has no string `id`; `ranker_failed` when the ranker fails
 */
export async function answerGeminiToolSearch(
  prepared: PreparedTools<GeminiInteractionTool>,
  call: GeminiToolSearchCall,
): Promise<GeminiToolSearchResult> {
  requireClientMode(prepared, 'answerGeminiToolSearch');
  if (typeof call !== 'object' || call === null || typeof call.id !== 'string') {
    throw new ToolSearchError(
      'invalid_argument',
      'answerGeminiToolSearch needs the tool_search_call step with a string id.',
    );
  }
  const result: GeminiToolSearchResult = {
    type: 'tool_search_result',
    call_id: call.id,
    tools: [],
  };
  const request = readSearchRequest(call.arguments, prepared.config);
  if (!request.ok) return result;
  const found = await searchDeferred(prepared, request.query, request.limit);
  result.tools = found.map((tool) => ({ name: prepared.names.toProvider(tool.name) }));
  return result;
}
