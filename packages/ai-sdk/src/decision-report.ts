import type { ActivationDecision } from '@tool-search/core';
import type { ModelMessage } from 'ai';
import type { AiSdkLogger } from './step-merge.js';

const number = (value: number) => value.toLocaleString('en-US');

/**
 * One sentence on an activation decision: whether tool search is active, why, and the
 * numbers compared.
 *
 * @param decision - the decision
 * @returns the sentence
 * @throws nothing
 */
export function describeDecision(decision: ActivationDecision): string {
  const tokens = number(decision.deferrableTokens);
  const threshold = number(decision.thresholdTokens);
  switch (decision.reason) {
    case 'disabled':
      return 'tool search is off (config enabled: off): every tool is sent as it is.';
    case 'nothing-deferrable':
      return 'tool search is inactive: no tool is deferrable (core, unlabelled and pinned tools are never deferred).';
    case 'forced-on':
      return `tool search is on (config enabled: on): ${tokens} tokens of deferrable tools are behind tool_search.`;
    case 'above-threshold':
      return `tool search is active: the deferrable tools come to ${tokens} tokens, at or above the ${threshold}-token threshold.`;
    case 'within-band':
      return `tool search stays active: the deferrable tools come to ${tokens} tokens, under the ${threshold}-token threshold but within its hysteresis band.`;
    case 'toolset-deferred':
      return `tool search is active for the toolsets configured deferred (${tokens} tokens of deferrable tools, under the ${threshold}-token threshold).`;
    case 'below-threshold':
      return `tool search is inactive: the deferrable tools come to ${tokens} tokens, under the ${threshold}-token threshold (10% of the context window by default; lower it with config.thresholdPct or config.thresholdTokens, or force it with config.enabled 'on'). Every tool is sent as it is.`;
  }
}

/**
 * What a bridge tool answers, as an error the model reads, when tool search is inactive:
 * the reason and the numbers, and what to do instead.
 *
 * @param tool - the bridge tool the model called
 * @param decision - the decision that made tool search inactive
 * @returns the error text
 * @throws nothing
 */
export function inactiveBridgeError(tool: string, decision: ActivationDecision): string {
  const why =
    decision.reason === 'below-threshold'
      ? `: its tools come to ${number(decision.deferrableTokens)} tokens, under the ${number(decision.thresholdTokens)}-token threshold`
      : '';
  return `'${tool}' is not available: tool search is inactive in this conversation (reason: ${decision.reason}${why}), so every tool is in your tools list already. Call the tools directly, by their names.`;
}

/**
 * Reports a setup's decision once: a warning when tool search is inactive below the
 * threshold (the case a user does not expect), else `logger.info` when the logger has one.
 *
 * @param logger - the setup's logger
 * @returns `report(decision)`, which passes on the first decision only
 * @throws nothing
 */
export function createDecisionReporter(
  logger: AiSdkLogger,
): (decision: ActivationDecision) => void {
  let reported = false;
  return (decision) => {
    if (reported) return;
    reported = true;
    const message = `@tool-search/ai-sdk: ${describeDecision(decision)}`;
    try {
      if (decision.reason === 'below-threshold') logger.warn(message);
      else logger.info?.(message);
    } catch {
      // A logger's own failure is not the caller's.
    }
  };
}

/**
 * The setup's decision: the first step's (no tool loaded), reported once through the
 * logger. Made at once, so that a setup below the threshold says so before the model is
 * ever called; a conversion that fails rejects here (caught, so that an unread decision
 * never crashes the process) and again, for the caller, in the first step.
 *
 * @param assemble - the setup's assembly of a step
 * @param logger - where the decision is reported
 * @returns the decision
 * @throws nothing; the promise rejects as the first assembly does
 */
export function reportedDecision(
  assemble: (messages?: readonly ModelMessage[]) => Promise<{ decision: ActivationDecision }>,
  logger: AiSdkLogger,
): Promise<ActivationDecision> {
  const report = createDecisionReporter(logger);
  const decision = assemble().then(({ decision: made }) => {
    report(made);
    return made;
  });
  decision.catch(() => {});
  return decision;
}
