/**
 * Counters of one session's use of the bridge, as plain numbers a runtime can log
 * or export as metrics. {@link assembleTools} and {@link handleBridgeCall} update
 * them in place; pass the same object to every assembly of a session (or pass
 * `previous`) to count per session, or let each assembly make its own to count per turn.
 */
export interface BridgeTelemetry {
  /** Assemblies built with this object. */
  assemblies: number;
  /** Of those, the ones that activated tool search. */
  activations: number;
  /** `tool_search` calls answered, including those answered with an error. */
  searches: number;
  /** `tool_describe` calls answered, including those answered with an error. */
  describes: number;
  /** `tool_call` calls answered, including those answered with an error. */
  calls: number;
  /** Direct calls of a deferred tool (by its own name, without `tool_call`) that the bridge routed. */
  directCalls: number;
  /** Calls that reached `dispatch` (through `tool_call` or routed direct calls). */
  dispatched: number;
  /**
   * Of the dispatched calls, those whose arguments were repaired before dispatch
   * (`"42"` to `42` for an integer, `""` to `{}` for an object that requires nothing).
   */
  argumentsRepaired: number;
  /**
   * Of the dispatched calls, those whose tool's schema could not be checked (malformed,
   * an external `$ref`, a pattern the linear engine cannot run): they went out untouched.
   */
  argumentsUnchecked: number;
  /**
   * Of the dispatched calls, those whose check left a keyword of the schema unchecked
   * and checked the rest: a pattern the linear engine cannot run, or a keyword whose
   * check would overrun its step budget (`skipped` of the resolved call names them).
   */
  argumentsPartlyChecked: number;
  /** Searches with no match, and describes or calls of a name that is not in the catalog. */
  misses: number;
  /** Bridge answers that carried an `error` (misses included). */
  errors: number;
  /**
   * Tokens saved, summed over the assemblies that activated: each adds its
   * `stats.tokensSaved`, i.e. what one model turn did not spend on deferred schemas.
   */
  tokensSaved: number;
  /**
   * Dispatched calls that succeeded (see `succeeded` of `HandleBridgeCallOptions`): each
   * ends a streak of searches.
   */
  successfulCalls: number;
  /** `tool_call`s of a tool already in the model's list: run, with a hint to call it directly. */
  visibleCalls: number;
  /** Searches answered "already searched" from the session's memory, not ranked again. */
  repeatedSearches: number;
  /** Search answers that carried a nudge (too many searches in a row without a call). */
  searchNudges: number;
  /** Searches refused by the session's cap (`search_limit`). */
  searchRefusals: number;
  /** The longest run of searches without a successful call. */
  longestSearchStreak: number;
}

/**
 * Creates a zeroed {@link BridgeTelemetry}.
 *
 * @example
 * ```ts
 * const telemetry = createBridgeTelemetry();
 * const assembly = assembleTools({ tools, telemetry });
 * logger.info({ toolSearch: { ...telemetry } });
 * ```
 *
 * @returns a new counters object
 * @throws nothing
 */
export function createBridgeTelemetry(): BridgeTelemetry {
  return {
    assemblies: 0,
    activations: 0,
    searches: 0,
    describes: 0,
    calls: 0,
    directCalls: 0,
    dispatched: 0,
    argumentsRepaired: 0,
    argumentsUnchecked: 0,
    argumentsPartlyChecked: 0,
    misses: 0,
    errors: 0,
    tokensSaved: 0,
    successfulCalls: 0,
    visibleCalls: 0,
    repeatedSearches: 0,
    searchNudges: 0,
    searchRefusals: 0,
    longestSearchStreak: 0,
  };
}

/**
 * Searches per successful call: how much a session searched for what it did. A runaway
 * session shows a high number (and {@link BridgeTelemetry.longestSearchStreak} a long run).
 *
 * @param telemetry - a session's counters
 * @returns `searches / successfulCalls`, or `searches` when no call succeeded
 * @throws nothing
 */
export function searchesPerSuccessfulCall(telemetry: BridgeTelemetry): number {
  return telemetry.searches / Math.max(1, telemetry.successfulCalls);
}

/**
 * Adds to one counter of an assembly's telemetry, when it has one.
 *
 * @param assembly - holds the counters, if any
 * @param key - the counter
 * @param by - how much @defaultValue 1
 * @returns nothing
 * @throws nothing
 */
export function bump(
  assembly: { telemetry?: BridgeTelemetry | undefined },
  key: keyof BridgeTelemetry,
  by = 1,
): void {
  const telemetry = assembly.telemetry;
  if (telemetry && typeof telemetry[key] === 'number') telemetry[key] += by;
}
