import type {
  ActivationDecision,
  TokenCounter,
  ToolDefinition,
  ToolSearchConfig,
} from '@tool-search/core';
import {
  classifyTools,
  decideActivation,
  estimateToolTokens,
  parseToolSearchConfig,
} from '@tool-search/core';
import type { SessionScope, ToolsetRegistry } from '@tool-search/toolsets';
import { scopeTools } from '@tool-search/toolsets';

/** Options of {@link decideToolSetActivation}: the inputs of core's activation decision. */
export interface ActivationOptions {
  /**
   * The tool search config, in any form `parseToolSearchConfig` accepts.
   * @defaultValue the defaults (`auto`, 10% of the context window)
   */
  config?: unknown;
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
 * The one place where the AI SDK adapter decides what to defer, with core's rules:
 * the tools are scoped to the session, classified (core and unlabelled tools and pins
 * are never deferred), their tokens estimated, and `decideActivation` compares them with
 * the threshold (`thresholdTokens`, or `thresholdPct` of the context window).
 *
 * @param tools - the session's tools
 * @param options - see {@link ActivationOptions}
 * @returns the decision and the split
 * @throws the `TypeError` of `JSON.stringify` for a schema that is not JSON
 */
export function decideToolSetActivation(
  tools: readonly ToolDefinition[],
  options: ActivationOptions = {},
): ToolSetActivation {
  const config = parseToolSearchConfig(options.config);
  const scoped = options.scope ? scopeTools(tools, options.scope, options.registry) : [...tools];
  const { visible, deferrable } = classifyTools(
    scoped,
    options.pinned ? { pinned: options.pinned } : {},
  );
  const decision = decideActivation({
    deferrableTokens: estimateToolTokens(deferrable, options.counter),
    ...(options.contextWindow !== undefined ? { contextWindow: options.contextWindow } : {}),
    config,
  });
  return {
    decision,
    config,
    scoped,
    visible: decision.active ? visible : scoped,
    deferred: decision.active ? deferrable : [],
  };
}
