// The learner callers hold: it turns a recorded (query, tool) pair into analysed terms
// and hands them to its store, and answers the learned terms a catalog puts into its
// ranker's index. The recording rules (which calls count) live with the callers that
// see searches and calls: the bridge's learning session.

import { type Analyzer, createAnalyzer } from '../analyzer.js';
import { ToolSearchError } from '../errors.js';
import { DEFAULT_BM25_TUNING } from '../rankers/bm25/tuning.js';
import type { Promisable } from '../types.js';
import {
  DEFAULT_LEARNING_PROFILE,
  type LearnedTerms,
  type LearningExport,
  type LearningStore,
} from './learning-types.js';
import { createMemoryLearningStore } from './memory-store.js';

/** One pair to record: a search whose hits held `tool`, then a successful call of it. */
export interface SearchLearnerPair {
  /** The search's query (analysed here; the text itself is never stored). Or give `terms`. */
  query?: string;
  /** The query's terms, already analysed with {@link SearchLearner.analyze}. */
  terms?: readonly string[];
  /** The tool called. */
  tool: string;
  /** The profile whose results it may change. @defaultValue `'default'` */
  profile?: string;
  /** Who called (a client's token): its contribution per tool and term is capped. */
  token?: string;
}

/** The counters of a learner. */
export interface SearchLearnerStats {
  /** Pairs that counted. */
  recorded: number;
  /** Pairs that did not (no terms, the token's cap reached, a store that failed). */
  ignored: number;
}

/**
 * Learning from use: records which tool was called after which search, and gives the
 * learned terms back to catalogs (`createCatalog(tools, { learner, profile })`), whose
 * ranker indexes them as a field of their own. Hold one per process or gateway (never in
 * module state); its store decides where the terms live.
 */
export interface SearchLearner {
  /** Where the learned terms live. */
  readonly store: LearningStore;
  /** The counters of this learner. */
  readonly stats: Readonly<SearchLearnerStats>;
  /**
   * The terms a query is recorded under: the default ranker's analysis (stems, stop
   * words dropped, identifiers split).
   *
   * @throws nothing for any string
   */
  analyze(query: string): string[];
  /**
   * Records a pair (see {@link SearchLearnerPair}).
   *
   * @returns whether it counted; never rejects (a store's failure counts as ignored)
   */
  record(pair: SearchLearnerPair): Promise<boolean>;
  /** The learned terms of a profile's tools (the same map until the profile changes). */
  learnedTerms(profile?: string): Promisable<ReadonlyMap<string, LearnedTerms>>;
  /** What the store holds, as JSON, for one profile or all. */
  export(profile?: string): Promise<LearningExport>;
  /**
   * Adds an export to the store.
   *
   * @throws ToolSearchError `invalid_argument` (the promise rejects) for data that is not an export
   */
  import(data: unknown): Promise<void>;
  /** Forgets one profile's terms, or all. */
  clear(profile?: string): Promise<void>;
}

/** Options of {@link createSearchLearner}. */
export interface SearchLearnerOptions {
  /** Where the terms live. @defaultValue `createMemoryLearningStore()` */
  store?: LearningStore;
  /**
   * The analysis of recorded queries: give the one your ranker's queries get.
   * @defaultValue the default BM25 preset's analyzer
   */
  analyzer?: Analyzer;
}

class Learner implements SearchLearner {
  readonly stats: SearchLearnerStats = { recorded: 0, ignored: 0 };

  constructor(
    readonly store: LearningStore,
    private readonly analyzer: Analyzer,
  ) {}

  analyze(query: string): string[] {
    return typeof query === 'string' ? this.analyzer.analyze(query) : [];
  }

  async record(pair: SearchLearnerPair): Promise<boolean> {
    let counted = false;
    try {
      const terms = pair.terms ?? this.analyze(pair.query ?? '');
      counted =
        typeof pair.tool === 'string' &&
        terms.length > 0 &&
        (await this.store.add({
          profile: profileName(pair.profile),
          tool: pair.tool,
          terms,
          ...(pair.token === undefined ? {} : { token: pair.token }),
        }));
    } catch {
      // Learning is a hint: a store that fails must not fail the call that succeeded.
      counted = false;
    }
    if (counted) this.stats.recorded += 1;
    else this.stats.ignored += 1;
    return counted;
  }

  learnedTerms(profile?: string): Promisable<ReadonlyMap<string, LearnedTerms>> {
    return this.store.learnedTerms(profileName(profile));
  }

  async export(profile?: string): Promise<LearningExport> {
    return await this.store.export(profile === undefined ? undefined : profileName(profile));
  }

  async import(data: unknown): Promise<void> {
    await this.store.import(data);
  }

  async clear(profile?: string): Promise<void> {
    await this.store.clear(profile === undefined ? undefined : profileName(profile));
  }
}

function profileName(profile: unknown): string {
  return typeof profile === 'string' && profile !== '' ? profile : DEFAULT_LEARNING_PROFILE;
}

/**
 * Creates a learner: hand it to the bridge (`createLearningSession` of
 * `@tool-search/bridge`), the AI SDK adapter or the gateway to record, and to
 * `createCatalog(tools, { learner, profile })` to rank with what was learned. Nothing is
 * learned unless a caller is given a learner.
 *
 * @example
 * ```ts
 * const learner = createSearchLearner();
 * await learner.record({ query: 'post to the team channel', tool: 'slack_post_message' });
 * const catalog = createCatalog(tools, { learner });
 * ```
 *
 * @param options.store - where the terms live @defaultValue a memory store
 * @param options.analyzer - the analysis of recorded queries @defaultValue the default ranker's
 * @returns the learner
 * @throws {@link ToolSearchError} `invalid_argument` for a store without the {@link LearningStore} methods
 */
export function createSearchLearner(options: SearchLearnerOptions = {}): SearchLearner {
  const store = options.store ?? createMemoryLearningStore();
  for (const method of ['add', 'learnedTerms', 'export', 'import', 'clear'] as const) {
    if (typeof store?.[method] !== 'function') {
      throw new ToolSearchError(
        'invalid_argument',
        `createSearchLearner: options.store has no ${method}() method. Pass a LearningStore, e.g. createMemoryLearningStore().`,
      );
    }
  }
  return new Learner(store, options.analyzer ?? createAnalyzer(DEFAULT_BM25_TUNING.analyzer));
}

/**
 * Whether a value is a learner {@link createSearchLearner} made.
 *
 * @internal
 */
export function isSearchLearner(value: unknown): value is SearchLearner {
  return value instanceof Learner;
}
