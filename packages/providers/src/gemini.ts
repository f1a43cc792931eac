/**
 * Tool search on Gemini. `generateContent` has no deferral of its own, so there the bridge
 * is what Gemini users lack: {@link prepareGeminiTools} sends the visible tools and the
 * three bridge tools as function declarations (in Gemini's schema subset), and
 * {@link dispatchGeminiFunctionCall} answers each `functionCall` part, the bridge tools
 * by the bridge and every real call through the one dispatcher. In the Interactions API,
 * Gemini's own tool retrieval (a `tool_search` tool and `defer_loading`, in preview) is
 * driven by our catalog: {@link prepareGeminiInteractionTools} and
 * {@link answerGeminiToolSearch}.
 *
 * `@google/genai` is not a dependency: the shapes here are structurally its own, checked
 * by a type test against its types (the Interactions API's tool retrieval is typed here
 * until the SDK types it).
 *
 * @example
 * ```ts
 * const prepared = await prepareGeminiTools(tools, { bridge: assembleTools, contextWindow: 1_000_000 });
 * const response = await ai.models.generateContent({ model, contents, config: { tools: prepared.tools } });
 * const parts = await dispatchGeminiFunctionCalls(prepared, response.functionCalls ?? [], dispatch, { bridge: handleBridgeCall });
 * contents.push(response.candidates[0].content, { role: 'user', parts });
 * ```
 *
 * @packageDocumentation
 */
import type { ToolDefinition } from '@tool-search/core';
import { ToolSearchError } from '@tool-search/core';
import { geminiNames } from './gemini-names.js';
import { type GeminiSchema, toGeminiSchema } from './gemini-schema.js';
import { type PreparedTools, type PrepareOptions, planDeferral } from './plan.js';
import { preparedBase } from './prepared-base.js';
import { type BridgeAssembler, type BridgeAssemblyShape, offReason } from './settle-mode.js';

/** A function declaration of `generateContent` (`FunctionDeclaration` of `@google/genai`). */
export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  /** The parameters in Gemini's schema subset; absent for a function without parameters. */
  parameters?: GeminiSchema;
}

/** A `generateContent` tool of function declarations (`Tool` of `@google/genai`). */
export interface GeminiFunctionTool {
  functionDeclarations: GeminiFunctionDeclaration[];
}

/** Options of {@link prepareGeminiTools}. */
export interface PrepareGeminiOptions<B extends BridgeAssemblyShape>
  extends Omit<
    PrepareOptions<B>,
    'bridge' | 'mode' | 'model' | 'capabilities' | 'programmatic' | 'searchToolName'
  > {
  /**
   * The bridge's assembler, `assembleTools` of `@tool-search/bridge` (the providers
   * package does not depend on the bridge): above the threshold, the deferred tools go
   * behind its three tools, and `prepared.bridge` is its assembly.
   */
  bridge: BridgeAssembler<B>;
  /** The model id, for the record; every Gemini model gets the bridge on `generateContent`. */
  model?: string;
}

/**
 * Converts one tool into a `generateContent` function declaration under a provider name.
 *
 * @param tool - the definition
 * @param name - the name to send
 * @returns the declaration
 * @throws nothing
 */
export function toGeminiFunctionDeclaration(
  tool: ToolDefinition,
  name: string = tool.name,
): GeminiFunctionDeclaration {
  const out: GeminiFunctionDeclaration = { name };
  if (tool.description !== undefined && tool.description !== '') out.description = tool.description;
  const parameters = toGeminiSchema(tool.inputSchema);
  // A function without parameters leaves them unset, as Gemini asks.
  if (parameters.properties !== undefined && Object.keys(parameters.properties).length > 0) {
    out.parameters = { ...parameters, type: 'OBJECT' };
  }
  return out;
}

/**
 * Builds the `tools` of a Gemini `generateContent` request (`config.tools`). The decision
 * is the one of every provider and of the bridge: core tools, tools of unknown source and
 * pinned tools are never deferred; the deferrable tools are deferred when their estimated
 * tokens reach the threshold. `generateContent` has no deferral of its own, so:
 * - `off` (below the threshold): every tool, as a function declaration;
 * - `bridge`: the visible tools and the three bridge tools of `options.bridge`
 *   (`assembleTools`), and `prepared.bridge`, its assembly.
 *
 * Schemas are converted to Gemini's subset (`toGeminiSchema`). Names that break Gemini's
 * rule are mapped ({@link PreparedTools.names}). Answer the calls with
 * {@link dispatchGeminiFunctionCall} (or `dispatchGeminiFunctionCalls` for all the parts
 * of a response at once).
 *
 * @param tools - the session's tools, already scoped
 * @param options - see {@link PrepareGeminiOptions}
 * @returns the {@link PreparedTools}, its `tools` one function tool
 * @throws `ToolSearchError` `invalid_argument` when `bridge` is not a function or the list is not an array; `duplicate_tool_name` when two tools share a name; `invalid_tool_definition` for an entry without a string name
 */
export async function prepareGeminiTools<B extends BridgeAssemblyShape>(
  tools: readonly ToolDefinition[],
  options: PrepareGeminiOptions<B>,
): Promise<PreparedTools<GeminiFunctionTool, B>> {
  if (typeof options?.bridge !== 'function') {
    throw new ToolSearchError(
      'invalid_argument',
      'prepareGeminiTools needs `bridge: assembleTools` (from @tool-search/bridge): generateContent has no deferral of its own.',
      { data: { field: 'bridge' } },
    );
  }
  const plan = planDeferral(tools, options);
  const names = geminiNames(tools);
  const declare = (list: readonly ToolDefinition[]): GeminiFunctionTool[] => [
    {
      functionDeclarations: list.map((tool) =>
        toGeminiFunctionDeclaration(tool, names.toProvider(tool.name)),
      ),
    },
  ];
  if (!plan.decision.active) {
    const base = preparedBase(plan, { reason: offReason(plan.decision) }, names, options);
    return {
      ...base,
      programmatic: undefined,
      mode: 'off',
      tools: declare(plan.tools),
      deferred: [],
    };
  }
  const assembly = options.bridge({
    tools: plan.tools,
    config: plan.config,
    ...(options.contextWindow === undefined ? {} : { contextWindow: options.contextWindow }),
    ...(options.ranker === undefined ? {} : { ranker: options.ranker }),
    ...(options.counter === undefined ? {} : { counter: options.counter }),
    ...(options.pinned === undefined ? {} : { pinned: options.pinned }),
    ...(options.learning === undefined ? {} : { learning: options.learning }),
  });
  const reason = `generateContent has no native tool search: 'bridge', the deferred tools behind the bridge tools`;
  return {
    ...preparedBase(plan, { reason }, names, options),
    programmatic: undefined,
    mode: 'bridge',
    tools: declare(assembly.tools),
    deferred: plan.deferrable.map((tool) => tool.name),
    bridge: assembly,
  };
}

export type {
  DispatchGeminiOptions,
  GeminiBridgeHandler,
  GeminiFunctionCall,
  GeminiFunctionResponsePart,
  GeminiInteractionFunctionResult,
} from './gemini-calls.js';
export {
  dispatchGeminiFunctionCall,
  dispatchGeminiFunctionCalls,
  dispatchGeminiInteractionCall,
} from './gemini-calls.js';
export type {
  GeminiInteractionFunction,
  GeminiInteractionTool,
  GeminiToolSearchCall,
  GeminiToolSearchResult,
  GeminiToolSearchTool,
  PrepareGeminiInteractionOptions,
} from './gemini-interactions.js';
export { answerGeminiToolSearch, prepareGeminiInteractionTools } from './gemini-interactions.js';
export { GEMINI_TOOL_NAME_RULES } from './gemini-names.js';
export type { GeminiSchema, GeminiType } from './gemini-schema.js';
export { toGeminiSchema } from './gemini-schema.js';
export type { PreparedTools, PrepareOptions } from './plan.js';
