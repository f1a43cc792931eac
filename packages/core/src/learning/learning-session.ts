import { ToolSearchError } from '../errors.js';
import type { SearchLearner } from './search-learner.js';

/** Options of {@link createLearningSession}. */
export interface LearningSessionOptions {
  /** The learner that records pairs (`createSearchLearner` of `@tool-search/core`). */
  learner: SearchLearner;
  /** The learner's profile this session records into and ranks with. @defaultValue `'default'` */
  profile?: string;
  /** Who the session acts for (a client's token): its contribution is capped per tool and term. */
  token?: string;
  /**
   * How many calls after a search a successful call of one of its hits still counts.
   * @defaultValue 3
   */
  window?: number;
}

/**
 * One session's learning from use: its recent searches (their analysed terms and hits,
 * never their text) and the learner they are recorded to. It is the one recorder every
 * surface holds: the bridge's `assembleTools` carries it from `previous` (or takes
 * `learning`) and ranks with the profile's learned terms, and its `handleBridgeCall`
 * records a pair when a search returned a tool and the session
 * then called it successfully (through `tool_call`, a batch or by its name) within
 * `window` calls. Denied, failed and refused calls never count, nor do the tools the
 * model sees directly (core and pinned tools). Hold one per session.
 */
export interface LearningSession {
  /** The learner pairs are recorded to. */
  readonly learner: SearchLearner;
  /** The profile. */
  readonly profile: string | undefined;
  /**
   * Tells the session of a call it did not dispatch (a tool the runtime ran itself, e.g.
   * one the model loaded and then called by its name): a pair is recorded when it
   * succeeded (never for a denied or failed call) and a recent search returned the tool.
   */
  recordCall(name: string, succeeded: boolean): void;
  /** Resolves when the pairs recorded so far have reached the learner's store. */
  flush(): Promise<void>;
}

interface RecentSearch {
  readonly terms: readonly string[];
  readonly hits: Set<string>;
  calls: number;
}

// A session's searches that may still lead to a call; the oldest go first.
const RECENT_SEARCHES = 8;

/** @internal */
export class LearningSessionState implements LearningSession {
  private readonly searches: RecentSearch[] = [];
  private pending: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: LearningSessionOptions & { window: number }) {}

  get learner(): SearchLearner {
    return this.options.learner;
  }

  get profile(): string | undefined {
    return this.options.profile;
  }

  recordCall(name: string, succeeded: boolean): void {
    if (typeof name === 'string') this.noteCall(name, succeeded === true);
  }

  flush(): Promise<void> {
    return this.pending.then(() => undefined);
  }

  /** A ranked search and the names it answered. */
  noteSearch(query: string, hits: readonly string[]): void {
    if (hits.length === 0) return;
    const terms = this.learner.analyze(query);
    if (terms.length === 0) return;
    this.searches.push({ terms, hits: new Set(hits), calls: 0 });
    if (this.searches.length > RECENT_SEARCHES) this.searches.shift();
  }

  /**
   * A call the session made: ages the recent searches, and records a pair when it
   * succeeded and a search within the window returned its (deferred) tool.
   */
  noteCall(name: string, recordable: boolean): void {
    let found: RecentSearch | undefined;
    if (recordable) {
      for (let i = this.searches.length - 1; i >= 0 && found === undefined; i--) {
        if (this.searches[i]!.hits.has(name)) found = this.searches[i];
      }
    }
    if (found !== undefined) {
      // A search leads to each of its tools once.
      found.hits.delete(name);
      const { learner, profile, token } = this.options;
      const recorded = learner.record({
        terms: found.terms,
        tool: name,
        ...(profile === undefined ? {} : { profile }),
        ...(token === undefined ? {} : { token }),
      });
      this.pending = Promise.all([this.pending, recorded]);
    }
    for (const search of this.searches) search.calls += 1;
    while (this.searches.length > 0 && this.searches[0]!.calls >= this.options.window) {
      this.searches.shift();
    }
  }
}

/**
 * Creates one session's {@link LearningSession}: pass it as `learning` to the session's
 * first `assembleTools` of `@tool-search/bridge` (later ones carry it over from
 * `previous`), to `withToolSearch` of `@tool-search/ai-sdk` (as options), or to every
 * `prepareAnthropicTools` / `prepareOpenAIResponsesTools` of a session's requests
 * (`@tool-search/providers`, client mode).
 *
 * @example
 * ```ts
 * const learner = createSearchLearner(); // one per process, from @tool-search/core
 * let assembly = assembleTools({ tools, learning: createLearningSession({ learner }) });
 * ```
 *
 * @param options - see {@link LearningSessionOptions}
 * @returns the session's learning state, with no searches yet
 * @throws `ToolSearchError` `invalid_argument` when `learner` has no `record` method or `window` is not a positive integer
 */
export function createLearningSession(options: LearningSessionOptions): LearningSession {
  if (typeof options?.learner?.record !== 'function') {
    throw new ToolSearchError(
      'invalid_argument',
      'createLearningSession needs { learner }: make one with createSearchLearner() of @tool-search/core.',
    );
  }
  const window = options.window ?? 3;
  if (!Number.isInteger(window) || window < 1) {
    throw new ToolSearchError(
      'invalid_argument',
      `createLearningSession: window must be a positive integer, got ${String(window)}.`,
    );
  }
  return new LearningSessionState({ ...options, window });
}

/**
 * The learning state of an assembly, when it has one {@link createLearningSession} made.
 *
 * @throws nothing
 * @internal
 */
export function learningOf(assembly: {
  learning?: LearningSession | undefined;
}): LearningSessionState | undefined {
  const learning = assembly.learning;
  return learning instanceof LearningSessionState ? learning : undefined;
}
