import type {
  ActivationDecision,
  TokenCounter,
  ToolDefinition,
  ToolSearchConfig,
  ToolSearchConfigInput,
} from '@tool-search/core';
import { planActivation } from '@tool-search/core';
import type { SessionScope, ToolsetRegistry } from '@tool-search/toolsets';
import { scopeTools } from '@tool-search/toolsets';

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
 * @param tools - the session's tools
 * @param options - see {@link ActivationOptions}
 * @returns the decision and the split
 * @throws `ToolSearchError` `duplicate_tool_name` when two tools share a name; the `TypeError`
 * of `JSON.stringify` for a schema that is not JSON
 */
export function decideToolSetActivation(
  tools: readonly ToolDefinition[],
  options: ActivationOptions = {},
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
