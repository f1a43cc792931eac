import type { ActivationDecision } from './activation.js';
import type { TokenCounter } from './tokens.js';
import { estimateToolTokens } from './tokens.js';
import type { ToolLoading, ToolsetLoading } from './tool-loading-kinds.js';
import { isToolLoading } from './tool-loading-kinds.js';
import type { ToolDefinition } from './types.js';

/**
 * The loading of a tool: its toolset's entry in `loading`, else `auto`.
 *
 * @param tool - the tool
 * @param loading - loading by toolset
 * @returns its loading
 * @throws nothing
 */
export function toolLoadingOf(
  tool: ToolDefinition,
  loading: ToolsetLoading | undefined,
): ToolLoading {
  if (loading === undefined || typeof tool.toolset !== 'string') return 'auto';
  const value = Object.hasOwn(loading, tool.toolset) ? loading[tool.toolset] : undefined;
  return isToolLoading(value) ? value : 'auto';
}

/** What {@link applyToolLoading} takes: a plan's lists and decision. */
export interface LoadingInput {
  /** The session's tools, in order (bridge tools are skipped). */
  tools: readonly ToolDefinition[];
  /** The tools that stay visible. */
  visible: readonly ToolDefinition[];
  /** The deferrable tools. */
  deferrable: readonly ToolDefinition[];
  /** The threshold's decision over every deferrable tool. */
  decision: ActivationDecision;
  /** Loading by toolset. */
  loading: ToolsetLoading | undefined;
  /** The token counter of the estimate. */
  counter: TokenCounter;
}

/**
 * Applies `deferred` toolsets to a decision the threshold said no to: their tools go
 * behind the bridge anyway (reason `toolset-deferred`, the numbers theirs alone), and the
 * other deferrable tools stay visible, in input order. A decision that is active, `off`
 * or has nothing deferrable is returned as it is (`eager` toolsets were kept visible by
 * the classification already).
 *
 * @param input - see {@link LoadingInput}
 * @returns the visible tools, the tools to defer when active, and the decision
 * @throws the `TypeError` of `JSON.stringify` for a schema that is not JSON
 */
export function applyToolLoading(input: LoadingInput): {
  visible: readonly ToolDefinition[];
  deferrable: readonly ToolDefinition[];
  decision: ActivationDecision;
} {
  const { decision, loading } = input;
  const unchanged = { visible: input.visible, deferrable: input.deferrable, decision };
  if (decision.active || decision.reason !== 'below-threshold' || loading === undefined) {
    return unchanged;
  }
  const forced = input.deferrable.filter((tool) => toolLoadingOf(tool, loading) === 'deferred');
  if (forced.length === 0) return unchanged;
  // The visible tools and the deferrable ones that stay, in the input's order.
  const kept = new Set(input.visible);
  for (const tool of input.deferrable)
    if (toolLoadingOf(tool, loading) !== 'deferred') kept.add(tool);
  return {
    visible: input.tools.filter((tool) => kept.has(tool)),
    deferrable: forced,
    decision: {
      active: true,
      reason: 'toolset-deferred',
      deferrableTokens: estimateToolTokens(forced, input.counter),
      thresholdTokens: decision.thresholdTokens,
    },
  };
}
