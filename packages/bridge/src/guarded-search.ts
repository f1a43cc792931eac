import type { RunawaySearchLimits } from '@tool-search/core';
import { ownValue } from '@tool-search/core/internal';
import { answerSearch } from './answer-search.js';
import type { Assembly } from './assemble.js';
import type { BridgeBatchResult } from './batch.js';
import { answerInOrder, planSearch } from './batch.js';
import type { BridgeErrorResult, ToolSearchResult } from './bridge-results.js';
import type { SearchGuardState } from './search-guard.js';
import { guardOf } from './search-guard.js';
import { selectedNames } from './select.js';
import { bump } from './telemetry.js';

// The nudge names this many of the best hits.
const NUDGED_NAMES = 3;

/**
 * The texts of the answers that stop runaway searches, one place; `docs/guides/errors.md`
 * lists each.
 */
export const runawayTexts = {
  repeated:
    'You already searched for this: these are the same results. Call one of them with tool_call (or load its schema with tool_describe), or search with other words.',
  nudge: (streak: number, names: readonly string[]) => {
    const best =
      names.length > 0
        ? ` The best matches so far: ${names.join(', ')}. Load them all at once with tool_search query 'select:${names.join(',')}', or call one with tool_call.`
        : " Load tools by their exact names with tool_search query 'select:name_a,name_b', or call one with tool_call.";
    return `You have searched ${streak} times in a row without a successful call.${best} Search again only with different words.`;
  },
  searchLimit: (limits: RunawaySearchLimits) =>
    `tool_search refused: this session made ${limits.maxSearches} searches within ${Math.round(limits.windowMs / 1000)} seconds. Call one of the tools you found with tool_call, or load tools by their exact names with tool_search query 'select:name_a,name_b'.`,
  callDirectly: (name: string) =>
    `'${name}' is already in your tools list: it ran, but call it directly by its name next time, not through tool_call.`,
} as const;

// A query the guard counts: a ranked search, not a `select:` load of exact names.
function isRanked(assembly: Assembly, query: unknown): boolean {
  if (typeof query !== 'string' || query.trim() === '') return false;
  const text = query.trim();
  return assembly.catalog.has(text) || selectedNames(text) === undefined;
}

function isSearchResult(value: ToolSearchResult | BridgeErrorResult): value is ToolSearchResult {
  return 'matches' in value;
}

async function answerQuery(
  assembly: Assembly,
  guard: SearchGuardState,
  limits: RunawaySearchLimits,
  args: Record<string, unknown> | undefined,
): Promise<ToolSearchResult | BridgeErrorResult> {
  const query = ownValue(args, 'query');
  if (!isRanked(assembly, query)) return answerSearch(assembly, args);
  const key = guard.keyOf((query as string).trim(), ownValue(args, 'limit'));
  const recalled =
    limits.repeatWindowMs > 0
      ? guard.recall(key, assembly.catalog, limits.repeatWindowMs)
      : undefined;
  let result: ToolSearchResult | BridgeErrorResult;
  if (recalled !== undefined) {
    bump(assembly, 'searches');
    bump(assembly, 'repeatedSearches');
    result = {
      ...recalled,
      matches: [...recalled.matches],
      already_searched: true,
      hint: runawayTexts.repeated,
    };
  } else {
    result = await answerSearch(assembly, args);
    if (isSearchResult(result)) guard.remember(key, assembly.catalog, { ...result });
  }
  if (isSearchResult(result) && limits.nudgeAfter > 0 && guard.streak >= limits.nudgeAfter) {
    const names = (
      result.matches.length > 0 ? result.matches.map((match) => match.name) : guard.best
    ).slice(0, NUDGED_NAMES);
    result.nudge = runawayTexts.nudge(guard.streak, names);
    bump(assembly, 'searchNudges');
  }
  return result;
}

/**
 * Answers `tool_search` (single, `queries` batch, `select:`) through the session's
 * {@link SearchGuard} when the assembly has one: the cap of the window refuses the whole
 * call (`search_limit`); an identical ranked query within the repeat window is answered
 * from memory with `already_searched` and a `hint`; past `nudgeAfter` searches in a row
 * without a successful call, each answer carries a `nudge`. A batch counts as one search;
 * `select:` loads are not counted.
 *
 * @param assembly - the session's assembly
 * @param args - the call's arguments
 * @returns the answer, as {@link handleBridgeCall} documents it
 * @throws nothing
 */
export async function answerToolSearch(
  assembly: Assembly,
  args: Record<string, unknown> | undefined,
): Promise<
  ToolSearchResult | BridgeErrorResult | BridgeBatchResult<ToolSearchResult | BridgeErrorResult>
> {
  const plan = planSearch(args);
  if (plan.kind === 'refused') {
    bump(assembly, 'searches');
    bump(assembly, 'errors');
    return { error: plan.error, code: plan.code };
  }
  const queries = plan.kind === 'single' ? [ownValue(args, 'query')] : plan.items;
  const guard = guardOf(assembly);
  if (guard === undefined) {
    return plan.kind === 'single'
      ? answerSearch(assembly, args)
      : answerInOrder(queries, (query) =>
          answerSearch(assembly, { query, limit: ownValue(args, 'limit') }),
        );
  }
  const limits = guard.limitsFor(assembly.config);
  if (queries.some((query) => isRanked(assembly, query))) {
    if (!guard.admit(limits)) {
      bump(assembly, 'searches');
      bump(assembly, 'errors');
      bump(assembly, 'searchRefusals');
      return { error: runawayTexts.searchLimit(limits), code: 'search_limit' };
    }
    const telemetry = assembly.telemetry;
    if (telemetry && guard.streak > telemetry.longestSearchStreak) {
      telemetry.longestSearchStreak = guard.streak;
    }
  }
  if (plan.kind === 'single') return answerQuery(assembly, guard, limits, args);
  return answerInOrder(queries, (query) =>
    answerQuery(assembly, guard, limits, { query, limit: ownValue(args, 'limit') }),
  );
}

/**
 * Counts one search that reaches the session's catalog by another route than
 * `tool_search` (a program's `tools.search`, a client's `tools/list` with a `query`)
 * against the session's runaway-search cap: one budget a session, whatever the route.
 * Hand it the session's assembly (the one that holds its {@link SearchGuard}).
 *
 * @param assembly - the session's assembly
 * @returns undefined when the search may run (it was counted); the refusal `tool_search`
 * gives (`code: 'search_limit'`) when the cap of the window is reached
 * @throws nothing
 */
export function admitSearch(
  assembly: Pick<Assembly, 'searchGuard' | 'config' | 'telemetry'>,
): BridgeErrorResult | undefined {
  const guard = guardOf(assembly);
  if (guard === undefined) return undefined;
  const limits = guard.limitsFor(assembly.config);
  if (guard.admit(limits)) return undefined;
  bump(assembly, 'searchRefusals');
  return { error: runawayTexts.searchLimit(limits), code: 'search_limit' };
}
