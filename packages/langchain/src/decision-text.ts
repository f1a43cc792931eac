import type { ActivationDecision } from '@tool-search/core';

/**
 * The one line that reports a setup's activation decision: a warning when deferrable
 * tools stay in the model's list because they are below the threshold, else information.
 *
 * @param decision - the assembly's decision
 * @param deferred - how many tools were deferred
 * @returns the level and the sentence
 * @throws nothing
 */
export function activationMessage(
  decision: ActivationDecision,
  deferred: number,
): { level: 'warn' | 'info'; message: string } {
  const numbers = `${decision.deferrableTokens} deferrable tokens, threshold ${decision.thresholdTokens}`;
  if (decision.active) {
    return {
      level: 'info',
      message: `@tool-search/langchain: tool search is active (${decision.reason}: ${numbers}); ${deferred} tools are deferred behind tool_search, tool_describe and tool_call.`,
    };
  }
  const why = inactiveReason(decision);
  return {
    level: decision.reason === 'below-threshold' ? 'warn' : 'info',
    message: `@tool-search/langchain: tool search is inactive: ${why}. Every tool goes to the model and no bridge tool is added (setup.decision has the numbers).`,
  };
}

function inactiveReason(decision: ActivationDecision): string {
  switch (decision.reason) {
    case 'disabled':
      return "it is disabled by the config (enabled: 'off')";
    case 'nothing-deferrable':
      return "no tool is deferrable (core, unlabelled and pinned tools are never deferred; give tools source 'mcp' or 'plugin')";
    default:
      return `the deferrable tools come to ${decision.deferrableTokens} tokens, below the threshold of ${decision.thresholdTokens} (${decision.reason}); lower config.thresholdPct or give contextWindow, or set enabled: 'on'`;
  }
}

/**
 * What a bridge tool answers when the model calls it while tool search is inactive: an
 * error naming the reason, so that the model calls the tool directly.
 *
 * @param name - the bridge tool called
 * @param decision - the setup's decision
 * @returns the error object the model reads
 * @throws nothing
 */
export function inactiveBridgeAnswer(name: string, decision: ActivationDecision): object {
  return {
    error: `'${name}' is not available: tool search is inactive in this session because ${inactiveReason(decision)}. Every tool is already in your tools list: call it directly by its name.`,
    code: 'tool_search_inactive',
    reason: decision.reason,
  };
}
