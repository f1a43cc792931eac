import type {
  ActivationDecision,
  TokenCounter,
  ToolDefinition,
  ToolSearchConfig,
  ToolSearchConfigInput,
} from '@tool-search/core';
import { planActivation, ToolSearchError } from '@tool-search/core';
import { isRecord } from '@tool-search/core/internal';
import type { SessionScope, ToolsetRegistry } from '@tool-search/toolsets';
import { scopeTools } from '@tool-search/toolsets';
import type { ToolSet } from 'ai';
import { type ToolSetLabels, toolDefinitionsFromToolSet } from './tool-set-definitions.js';

/** Options of {@link decideToolSetActivation}: the inputs of core's activation decision. */
export interface ActivationOptions {
  /**
   * The tool search config, in any form `parseToolSearchConfig` accepts.
   * @defaultValue the defaults (`auto`, 10% of the context window)
   */
  config?: ToolSearchConfigInput;
  /** The model's context window in tokens; unknown means a 20,000-token threshold. */
  contextWindow?: number;
  /** Names that stay visible whatever their source (pins). */
  pinned?: Iterable<string>;
  /** The token counter of the estimates. @defaultValue `charsPerTokenCounter` */
  counter?: TokenCounter;
  /** The session's scope: tools outside it are neither sent nor searchable. */
  scope?: SessionScope;
  /** The toolset registry the scope is read against. */
  registry?: ToolsetRegistry;
}

/** What {@link decideToolSetActivation} decided for one tool list. */
export interface ToolSetActivation {
  /** The decision with its reason and numbers. */
  decision: ActivationDecision;
  /** The parsed config. */
  config: ToolSearchConfig;
  /** The tools in the session's scope, in order. */
  scoped: ToolDefinition[];
  /** The tools the model always sees: core, unlabelled and pinned ones. */
  visible: ToolDefinition[];
  /** The tools sent deferred (or kept back): the deferrable ones when active, else none. */
  deferred: ToolDefinition[];
}

/**
 * The one place where the AI SDK adapter decides what to defer: the tools are scoped to
 * the session, then core's `planActivation` (the plan the bridge and the providers use)
 * classifies them (core and unlabelled tools and pins are never deferred), estimates
 * their tokens and compares them with the threshold.
 *
 * Given an AI SDK `ToolSet`, it converts the set first, as `withToolSearch` does
 * (`toolDefinitionsFromToolSet` with the labels in `options`), and answers a promise.
 *
 * @example
 * ```ts
 * const { decision } = await decideToolSetActivation(tools, { contextWindow: 128_000 });
 * // → { active: false, reason: 'below-threshold', deferrableTokens: 12476, thresholdTokens: 12800 }
 * ```
 *
 * @param tools - the session's tools: tool definitions, or an AI SDK `ToolSet`
 * @param options - see {@link ActivationOptions}; for a `ToolSet` also its labels
 * @returns the decision and the split (a promise of them for a `ToolSet`)
 * @throws `ToolSearchError` `duplicate_tool_name` when two tools share a name;
 * `invalid_argument` when `tools` is neither a list nor a tool set; the `TypeError` of
 * `JSON.stringify` for a schema that is not JSON. For a `ToolSet`, the promise rejects
 * with `invalid_tool_definition` when a tool's schema cannot be converted.
 */
export function decideToolSetActivation(
  tools: readonly ToolDefinition[],
  options?: ActivationOptions,
): ToolSetActivation;
export function decideToolSetActivation(
  tools: ToolSet,
  options?: ActivationOptions & ToolSetLabels,
): Promise<ToolSetActivation>;
export function decideToolSetActivation(
  tools: readonly ToolDefinition[] | ToolSet,
  options: ActivationOptions & ToolSetLabels = {},
): ToolSetActivation | Promise<ToolSetActivation> {
  if (Array.isArray(tools)) return decideOnDefinitions(tools, options);
  if (!isRecord(tools)) {
    throw new ToolSearchError(
      'invalid_argument',
      `decideToolSetActivation: tools must be a list of tool definitions or an AI SDK ToolSet (an object of tools by name), got ${tools === null ? 'null' : typeof tools}.`,
      { data: { field: 'tools' } },
    );
  }
  return toolDefinitionsFromToolSet(tools as ToolSet, options).then((definitions) =>
    decideOnDefinitions(definitions, options),
  );
}

function decideOnDefinitions(
  tools: readonly ToolDefinition[],
  options: ActivationOptions,
): ToolSetActivation {
  const scoped = options.scope ? scopeTools(tools, options.scope, options.registry) : [...tools];
  const { config, visible, deferrable, decision } = planActivation(scoped, {
    config: options.config,
    ...(options.pinned === undefined ? {} : { pinned: options.pinned }),
    ...(options.counter === undefined ? {} : { counter: options.counter }),
    ...(options.contextWindow === undefined ? {} : { contextWindow: options.contextWindow }),
  });
  return {
    decision,
    config,
    scoped,
    visible: decision.active ? visible : scoped,
    deferred: decision.active ? deferrable : [],
  };
}
