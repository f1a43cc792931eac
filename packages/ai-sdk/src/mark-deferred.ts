import type { ActivationDecision, ToolDefinition } from '@tool-search/core';
import type { Tool, ToolSet } from 'ai';
import { type ActivationOptions, decideToolSetActivation } from './activation.js';
import { type ToolSetLabels, toolDefinitionsFromToolSet } from './tool-set-definitions.js';

/**
 * Who loads the deferred tools:
 * - `'ai'`: the AI SDK 7's own `toolSearch()` tool, for any model: the tool gets
 *   `deferLoading: true`;
 * - `'anthropic'`: Anthropic's hosted tool search (`anthropic.tools.toolSearchBm25_20251119()`
 *   or `toolSearchRegex_20251119()` of `@ai-sdk/anthropic`): the tool gets
 *   `providerOptions.anthropic.deferLoading: true`;
 * - `'openai'`: OpenAI's tool search (`openai.tools.toolSearch()` of `@ai-sdk/openai`, the
 *   Responses API): the tool gets `providerOptions.openai.deferLoading: true`.
 */
export type DeferLoadingTarget = 'ai' | 'anthropic' | 'openai';

/** Options of {@link markDeferredTools}. */
export interface MarkDeferredToolsOptions extends ActivationOptions, ToolSetLabels {
  /** Who loads the deferred tools. @defaultValue 'ai' */
  target?: DeferLoadingTarget;
}

/** What {@link markDeferredTools} returns. */
export interface MarkedToolSet {
  /**
   * The tools to send: those in the session's scope, the deferred ones marked for the
   * target, the others as they were (the same objects).
   */
  tools: ToolSet;
  /** The names marked deferred, in order (empty below the threshold). */
  deferred: string[];
  /** The activation decision with its reason and numbers. */
  decision: ActivationDecision;
  /** The definitions of the tools in scope, for `createToolSearchFunction`. */
  definitions: ToolDefinition[];
}

function marked(tool: Tool, target: DeferLoadingTarget): Tool {
  // ai 6 types know no deferLoading; the field is what ai 7 reads.
  if (target === 'ai') return { ...tool, deferLoading: true } as unknown as Tool;
  const providerOptions = (tool.providerOptions ?? {}) as Record<string, Record<string, unknown>>;
  return {
    ...tool,
    providerOptions: {
      ...providerOptions,
      [target]: { ...(providerOptions[target] ?? {}), deferLoading: true },
    },
  } as Tool;
}

/**
 * Marks the deferrable tools of an AI SDK tool set for deferred loading, by our
 * activation decision: only when the deferrable tools' schemas reach the threshold,
 * never a core, unlabelled or pinned tool, and never a tool outside the session's scope
 * (those are dropped). Pair it with a search that loads them: AI SDK 7's
 * `toolSearch({ search: createToolSearchFunction(...) })` for `target: 'ai'`, or the
 * platform's own hosted search for `'anthropic'` / `'openai'`.
 *
 * @example
 * ```ts
 * const { tools: marked, definitions } = await markDeferredTools(tools, { contextWindow: 200_000 });
 * await generateText({
 *   model,
 *   tools: { ...marked, tool_search: toolSearch({ search: createToolSearchFunction({ tools: definitions }) }) },
 *   stopWhen: stepCountIs(8),
 *   prompt,
 * });
 * ```
 *
 * @param tools - the AI SDK tool set
 * @param options - the target, the activation inputs and the labels
 * @returns the marked tool set, the deferred names, the decision and the definitions
 * @throws `ToolSearchError` `invalid_tool_definition` when a tool's input schema cannot be
 * converted to JSON Schema
 */
export async function markDeferredTools(
  tools: ToolSet,
  options: MarkDeferredToolsOptions = {},
): Promise<MarkedToolSet> {
  const target = options.target ?? 'ai';
  const all = await toolDefinitionsFromToolSet(tools, options);
  const activation = decideToolSetActivation(all, options);
  const inScope = new Set(activation.scoped.map((tool) => tool.name));
  const known = new Set(all.map((tool) => tool.name));
  const deferred = new Set(activation.deferred.map((tool) => tool.name));
  const result: ToolSet = {};
  for (const [name, tool] of Object.entries(tools)) {
    // Provider-defined tools are not ours to scope or defer; out-of-scope tools go.
    if (known.has(name) && !inScope.has(name)) continue;
    result[name] = deferred.has(name) ? marked(tool, target) : tool;
  }
  return {
    tools: result,
    deferred: [...deferred],
    decision: activation.decision,
    definitions: activation.scoped,
  };
}
