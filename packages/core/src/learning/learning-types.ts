// The contract of learning from use: what a store keeps (per profile, per tool, the
// analysed query terms that led to a successful call of it, with decayed counts), its
// bounds, and the JSON it exports. A store implements `LearningStore`; the memory store
// (memory-store.ts) is the default, and a shared store (Redis) implements the same
// methods, asynchronously.

import type { Promisable } from '../types.js';
import type { LearningExport } from './learning-export.js';

export type { LearningExport };

/**
 * The learned terms of one tool: analysed query terms and their (decayed) counts.
 * A ranker reads them from {@link ToolDefinition.learnedTerms}.
 */
export type LearnedTerms = Readonly<Record<string, number>>;

/** The bounds and the decay of a learning store. */
export interface LearningLimits {
  /** The most terms kept per tool (the lowest counts go first). @defaultValue 32 */
  maxTermsPerTool: number;
  /** The most terms kept in all, over every profile and tool. @defaultValue 200,000 */
  maxEntries: number;
  /**
   * The most one token contributes to one tool and term (before decay), so that one
   * client cannot steer a profile. Pairs recorded without a token are not capped (the
   * caller is trusted: a library with one user). @defaultValue 1
   */
  tokenCap: number;
  /**
   * The most one token contributes to one tool over all its terms (before decay): a
   * client that points many queries at one tool counts like one that called it a few
   * times. @defaultValue 8
   */
  tokenToolCap: number;
  /** The half-life of a count, in milliseconds. @defaultValue 30 days */
  halfLifeMs: number;
  /** Counts decay in steps of this long (between steps, learned terms stay the same). @defaultValue 1 day */
  decayStepMs: number;
  /** The most distinct terms one recorded query adds (its first ones). @defaultValue 16 */
  maxTermsPerQuery: number;
}

/** One recorded pair, as a store receives it: the terms are already analysed. */
export interface LearnedPair {
  /** The profile whose results it may change. */
  readonly profile: string;
  /** The tool that was called after a search returned it. */
  readonly tool: string;
  /** The query's analysed terms (never the raw query). */
  readonly terms: readonly string[];
  /** Who recorded it (a client's token): the store keeps only a hash of it. */
  readonly token?: string;
}

/**
 * Where learned terms live: per profile, per tool. Every method may answer a promise
 * (a shared store does); the memory store answers at once.
 */
export interface LearningStore {
  /**
   * Counts a pair: each of its terms for its tool in its profile, within the token's
   * cap and the store's bounds.
   *
   * @returns whether anything was counted (false when the token's cap was reached for every term)
   */
  add(pair: LearnedPair): Promisable<boolean>;
  /**
   * The learned terms of a profile's tools. The same map (and the same per-tool objects)
   * comes back until something in the profile changes, so that a catalog patches only
   * the tools whose terms changed.
   */
  learnedTerms(profile: string): Promisable<ReadonlyMap<string, LearnedTerms>>;
  /** What the store holds, for one profile or all. */
  export(profile?: string): Promisable<LearningExport>;
  /**
   * Adds an export's counts to the store (within its bounds).
   *
   * @throws ToolSearchError `invalid_argument` when the data is not a {@link LearningExport}
   */
  import(data: unknown): Promisable<void>;
  /** Forgets one profile's terms, or every profile's. */
  clear(profile?: string): Promisable<void>;
}

/** The profile of a pair or a catalog that names none. */
export const DEFAULT_LEARNING_PROFILE = 'default';

/** The bounds and decay of {@link createMemoryLearningStore} unless given. */
export const DEFAULT_LEARNING_LIMITS: Readonly<LearningLimits> = Object.freeze({
  maxTermsPerTool: 32,
  maxEntries: 200_000,
  tokenCap: 1,
  tokenToolCap: 8,
  halfLifeMs: 30 * 24 * 60 * 60 * 1000,
  decayStepMs: 24 * 60 * 60 * 1000,
  maxTermsPerQuery: 16,
});
