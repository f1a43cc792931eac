import type { ToolDefinition, ToolNameMap, ToolNameRules } from '@tool-search/core';
import { createToolNameMap } from '@tool-search/core';
import { BRIDGE_TOOL_NAMES } from '@tool-search/core/internal';
import type { DeferralPlan, PreparedTools, PrepareOptions } from './plan.js';
import type { SettledProgrammatic } from './programmatic.js';
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

/**
 * The preparation of the two modes every provider builds alike: `off` (every tool, as it
 * is) and `bridge` (the assembly's tools, or the visible ones without an assembler), each
 * with what programs may call among the tools sent. Each provider builds its native modes
 * in its own format.
 *
 * @param plan - the activation plan
 * @param settled - the settled mode
 * @param base - the shared fields ({@link preparedBase})
 * @param programs - the settled programmatic option, if any
 * @param build - the request's tools for the tools sent, in the provider's format
 * @returns the preparation
 * @throws whatever `build` throws (a provider's own request check)
 */
export function preparedOffOrBridge<T, B>(
  plan: DeferralPlan,
  settled: Exclude<SettledMode<B>, { kind: 'native' }>,
  base: ReturnType<typeof preparedBase>,
  programs: SettledProgrammatic | undefined,
  build: (sent: readonly ToolDefinition[]) => T[],
): PreparedTools<T, B> {
  const sent =
    settled.kind === 'off'
      ? plan.tools
      : ((settled.assembly as { tools?: readonly ToolDefinition[] } | undefined)?.tools ??
        plan.visible);
  const programmatic = programs?.report(sent.map((tool) => tool.name));
  if (settled.kind === 'off') {
    return { ...base, programmatic, mode: 'off', tools: build(sent), deferred: [] };
  }
  return {
    ...base,
    programmatic,
    mode: 'bridge',
    tools: build(sent),
    deferred: plan.deferrable.map((tool) => tool.name),
    bridge: settled.assembly,
  };
}
