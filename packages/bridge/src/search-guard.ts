import type {
  Analyzer,
  RunawaySearchLimits,
  ToolCatalog,
  ToolSearchConfig,
} from '@tool-search/core';
import { createAnalyzer, DEFAULT_RUNAWAY_SEARCH_LIMITS, ToolSearchError } from '@tool-search/core';
import type { ToolSearchResult } from './bridge-results.js';

/** Options of {@link createSearchGuard}. */
export interface SearchGuardOptions {
  /**
   * Limits that win over the config's `runaway` section (and its defaults,
   * `DEFAULT_RUNAWAY_SEARCH_LIMITS` of `@tool-search/core`).
   */
  limits?: Partial<RunawaySearchLimits>;
  /** The clock of the windows, in milliseconds. @defaultValue `Date.now` */
  now?: () => number;
  /**
   * The analysis that decides when two queries are the same (`Send emails` and `send
   * email` are). @defaultValue `createAnalyzer()` of `@tool-search/core`, made on first use
   */
  analyzer?: Analyzer;
}

/**
 * One session's state against runaway searches: the recent queries with their answers,
 * the times of the recent searches and the searches since the last successful call.
 * {@link assembleTools} carries it from `previous` (or takes `searchGuard`), and
 * {@link handleBridgeCall} reads and updates it: hold one per session, never share one
 * between sessions.
 */
export interface SearchGuard {
  /** Searches since the last successful call (`select:` loads are not counted). */
  readonly streak: number;
  /**
   * Tells the guard of a successful call it did not see (a tool the runtime dispatched
   * itself, without {@link handleBridgeCall}): the streak starts over.
   */
  recordCall(): void;
}

interface Remembered {
  at: number;
  catalog: ToolCatalog;
  result: ToolSearchResult;
}

// Enough for a session's recent queries; the oldest is forgotten first.
const REMEMBERED_QUERIES = 64;

/** @internal */
export class SearchGuardState implements SearchGuard {
  streak = 0;
  /** Times of the searches within the cap's window, oldest first. */
  private readonly times: number[] = [];
  private readonly answers = new Map<string, Remembered>();
  /** The best names of the latest answer that had matches. */
  best: string[] = [];
  private analyzer: Analyzer | undefined;

  constructor(private readonly options: SearchGuardOptions) {
    this.analyzer = options.analyzer;
  }

  now(): number {
    return (this.options.now ?? Date.now)();
  }

  recordCall(): void {
    this.streak = 0;
  }

  /** The limits in force: these options over the config's section over the defaults. */
  limitsFor(config: ToolSearchConfig | undefined): RunawaySearchLimits {
    const limits = { ...DEFAULT_RUNAWAY_SEARCH_LIMITS, ...config?.runaway };
    for (const [key, value] of Object.entries(this.options.limits ?? {})) {
      if (value !== undefined) limits[key as keyof RunawaySearchLimits] = value;
    }
    return limits;
  }

  /**
   * Counts one search, unless the cap of the window is reached.
   *
   * @returns false when the search is refused (nothing was counted)
   */
  admit(limits: RunawaySearchLimits): boolean {
    const now = this.now();
    while (this.times.length > 0 && this.times[0]! <= now - limits.windowMs) this.times.shift();
    if (limits.maxSearches > 0 && this.times.length >= limits.maxSearches) return false;
    this.times.push(now);
    // Only the last `maxSearches` times can refuse a search.
    if (limits.maxSearches > 0 && this.times.length > limits.maxSearches) this.times.shift();
    this.streak += 1;
    return true;
  }

  /** The key of a query: its analysed terms, in any order, and the limit asked for. */
  keyOf(text: string, limit: unknown): string {
    this.analyzer ??= createAnalyzer();
    const terms = [...new Set(this.analyzer.analyze(text))].sort();
    const words = terms.length > 0 ? terms.join(' ') : text.toLowerCase();
    const asked =
      typeof limit === 'number' || typeof limit === 'string' ? String(limit).trim() : '';
    return `${words}\u0000${asked}`;
  }

  /** The answer to the same query within the window, over the same catalog. */
  recall(key: string, catalog: ToolCatalog, windowMs: number): ToolSearchResult | undefined {
    const entry = this.answers.get(key);
    if (entry === undefined || entry.catalog !== catalog) return undefined;
    if (entry.at <= this.now() - windowMs) return undefined;
    return entry.result;
  }

  remember(key: string, catalog: ToolCatalog, result: ToolSearchResult): void {
    this.answers.delete(key);
    this.answers.set(key, { at: this.now(), catalog, result });
    if (this.answers.size > REMEMBERED_QUERIES) {
      this.answers.delete(this.answers.keys().next().value!);
    }
    if (result.matches.length > 0) this.best = result.matches.map((match) => match.name);
  }
}

/**
 * Creates one session's {@link SearchGuard}. Pass it as `searchGuard` to the session's
 * first `assembleTools` (later ones carry it over from `previous`), or let the first
 * assembly make one with the defaults.
 *
 * @example
 * ```ts
 * const searchGuard = createSearchGuard({ limits: { nudgeAfter: 3, maxSearches: 20 } });
 * let assembly = assembleTools({ tools, searchGuard });
 * // next turn
 * assembly = assembleTools({ tools, previous: assembly });
 * ```
 *
 * @param options - see {@link SearchGuardOptions}
 * @returns a new guard with an empty history
 * @throws {@link ToolSearchError} `invalid_argument` when a limit is not a number of at least 0
 */
export function createSearchGuard(options: SearchGuardOptions = {}): SearchGuard {
  for (const [key, value] of Object.entries(options.limits ?? {})) {
    if (value !== undefined && !(typeof value === 'number' && value >= 0)) {
      throw new ToolSearchError(
        'invalid_argument',
        `createSearchGuard: limits.${key} must be a number of at least 0, got ${String(value)}.`,
      );
    }
  }
  return new SearchGuardState(options);
}

/**
 * The state behind a guard, when it is one {@link createSearchGuard} made.
 *
 * @throws {@link ToolSearchError} `invalid_argument` for an object it did not make
 * @internal
 */
export function searchGuardState(guard: SearchGuard): SearchGuardState {
  if (!(guard instanceof SearchGuardState)) {
    throw new ToolSearchError(
      'invalid_argument',
      'assembleTools: options.searchGuard is not a search guard. Make one with createSearchGuard().',
    );
  }
  return guard;
}

/**
 * The state of an assembly's guard, when it has one that {@link createSearchGuard} made.
 *
 * @throws nothing
 * @internal
 */
export function guardOf(assembly: {
  searchGuard?: SearchGuard | undefined;
}): SearchGuardState | undefined {
  const guard = assembly.searchGuard;
  return guard instanceof SearchGuardState ? guard : undefined;
}
