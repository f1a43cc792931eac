import type { ToolDefinition, ToolNameMap, ToolNameRules } from '@tool-search/core';
import { createToolNameMap } from '@tool-search/core';
import { BRIDGE_TOOL_NAMES } from '@tool-search/core/internal';
import type { DeferralPlan, PreparedTools, PrepareOptions } from './plan.js';
import type { SettledMode } from './settle-mode.js';

/**
 * The fields every provider's preparation shares, whatever its wire format: the decision,
 * the catalog, the config, the name map, the reason, and no search tool or bridge yet.
 *
 * @param plan - the activation plan
 * @param settled - the settled mode (its reason)
 * @param names - the provider's name map
 * @param options - the preparation's options (its learning)
 * @param strict - whether the functions are strict (OpenAI)
 * @returns the shared fields
 * @throws nothing
 */
export function preparedBase(
  plan: DeferralPlan,
  settled: Pick<SettledMode<unknown>, 'reason'>,
  names: ToolNameMap,
  options: Pick<PrepareOptions, 'learning'>,
  strict = false,
) {
  return {
    decision: plan.decision,
    catalog: plan.catalog,
    config: plan.config,
    names,
    reason: settled.reason,
    strict,
    searchToolName: undefined,
    bridge: undefined,
    ...(options.learning === undefined ? {} : { learning: options.learning }),
  } satisfies Partial<PreparedTools<unknown>>;
}

/**
 * The provider's name map of a preparation: the session's tools and the three bridge
 * tools (`bridge` mode sends them, and no tool may take their names).
 *
 * @param tools - the session's tools
 * @param rules - the provider's name rules
 * @returns the map
 * @throws nothing for rules of 10 characters or more
 */
export function preparedNames(
  tools: readonly ToolDefinition[],
  rules: Readonly<ToolNameRules>,
): ToolNameMap {
  return createToolNameMap([...tools, ...BRIDGE_TOOL_NAMES], rules);
}
