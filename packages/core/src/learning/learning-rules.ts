// The rules of learning from use, as functions of plain data: which terms of a pair count,
// what is kept of a token, how much a token may still give, the decay in steps, what is
// forgotten and when, the view a catalog is handed and the check of an import. Every
// learning store keeps them: the memory store (memory-store.ts, profile-learning.ts)
// calls them, and a store that keeps its terms elsewhere (the gateway's Redis store) calls
// them too, or, where a change must run inside its database in one step, runs the same
// arithmetic on the numbers they give it.

import { ToolSearchError } from '../errors.js';
import { sha256Base64url } from '../sha256.js';
import { type LearningExport, parseLearningExport } from './learning-export.js';
import {
  DEFAULT_LEARNING_LIMITS,
  type LearnedTerms,
  type LearningLimits,
} from './learning-types.js';

/** A count below this (after decay) is forgotten. */
const MIN_COUNT = 0.05;
/** Past the bound in all, the lightest share of the terms is forgotten at once. */
const PRUNE_SHARE = 0.1;
/** The longest term a pair may count. */
const MAX_TERM_LENGTH = 64;

/**
 * The rules every {@link LearningStore} keeps, with its limits resolved: made by
 * {@link createLearningRules}. A store of your own (a database of your choice) calls them
 * so that it counts, caps, decays, forgets, exports and imports exactly as the memory
 * store does; where one change must run inside the database in one step (a script), it
 * runs the same arithmetic on the numbers these give it (`limits`, `minCount`,
 * `pruneShare`, `decayFactor(1)`).
 */
export interface LearningRules {
  /** The bounds and the decay, defaults filled in. */
  readonly limits: Readonly<LearningLimits>;
  /** A count that decays below this is forgotten (its term goes). */
  readonly minCount: number;
  /**
   * Past `limits.maxEntries` terms in all, the lightest share of them is forgotten at
   * once: every term whose count is at most {@link LearningRules.pruneThreshold}.
   */
  readonly pruneShare: number;
  /**
   * The terms of a recorded pair that count: its distinct strings of 1 to 64 characters,
   * the first `limits.maxTermsPerQuery` of them, in order. Anything else (not an array,
   * not strings) counts nothing.
   *
   * @throws nothing
   */
  termsOf(terms: readonly string[]): string[];
  /**
   * What a store keeps of a token (for its caps): a hash, 16 characters of base64url,
   * never the token.
   *
   * @throws nothing
   */
  tokenKey(token: string): string;
  /**
   * How much of `amount` a token may still give one term of one tool, after it gave
   * `given.term` to that term and `given.tool` to the tool in all (both decayed): at
   * most `limits.tokenCap` per term and `limits.tokenToolCap` per tool. Not above 0:
   * nothing is counted.
   *
   * @throws nothing
   */
  tokenShare(amount: number, given: { term: number; tool: number }): number;
  /**
   * The decay step of a time: counts change only when it does.
   *
   * @throws nothing
   */
  stepOf(time: number): number;
  /**
   * What a count is multiplied by after `steps` decay steps: it halves every
   * `limits.halfLifeMs`.
   *
   * @throws nothing
   */
  decayFactor(steps: number): number;
  /**
   * The count at or below which a prune forgets terms, given every count a store holds
   * (the {@link LearningRules.pruneShare} lightest of them). Sorts `counts`.
   *
   * @returns the threshold; `-Infinity` for no counts
   * @throws nothing
   */
  pruneThreshold(counts: number[]): number;
  /**
   * The frozen view of one tool's terms that a catalog is handed: heaviest first, then
   * by term, so that the same terms give the same object shape. Sorts `counts`.
   *
   * @throws nothing
   */
  view(counts: Array<[term: string, count: number]>): LearnedTerms;
  /**
   * Checks data before a store imports it.
   *
   * @throws {@link ToolSearchError} `invalid_argument` when it is not a {@link LearningExport}
   */
  parseExport(data: unknown): LearningExport;
}

/** The distinct terms of a query, its first `max` (strings of 1 to 64 characters). */
function distinctTerms(terms: readonly string[], max: number): string[] {
  const out: string[] = [];
  if (!Array.isArray(terms)) return out;
  for (const term of terms) {
    if (typeof term !== 'string' || term === '' || term.length > MAX_TERM_LENGTH) continue;
    if (!out.includes(term)) out.push(term);
    if (out.length >= max) break;
  }
  return out;
}

/** The limits with the defaults filled in. */
function checkLimits(limits: Partial<LearningLimits>): LearningLimits {
  const resolved = { ...DEFAULT_LEARNING_LIMITS };
  for (const [key, value] of Object.entries(limits ?? {})) {
    if (value === undefined) continue;
    if (!(key in DEFAULT_LEARNING_LIMITS)) {
      throw new ToolSearchError('invalid_argument', `Unknown learning limit '${key}'.`);
    }
    if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value)) {
      throw new ToolSearchError(
        'invalid_argument',
        `Learning limit '${key}' must be a positive finite number, got ${String(value)}.`,
      );
    }
    resolved[key as keyof LearningLimits] = value;
  }
  return resolved;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Makes the rules of learning from use for a store with these limits: the one place
 * they are written. {@link createMemoryLearningStore} keeps them, and so must a
 * {@link LearningStore} of your own (the gateway's Redis store does), so that every
 * store counts, caps, decays and forgets alike; `@tool-search/mcp/testing`'s
 * `testGatewayStore` checks a gateway store's learning against them.
 *
 * @example
 * ```ts
 * const rules = createLearningRules({ tokenCap: 2 });
 * const terms = rules.termsOf(pair.terms); // what of a pair counts
 * const key = pair.token === undefined ? undefined : rules.tokenKey(pair.token);
 * const give = rules.tokenShare(1, { term: givenToTerm, tool: givenToTool });
 * ```
 *
 * @param limits - bounds and decay that differ from {@link DEFAULT_LEARNING_LIMITS}
 * @returns the rules
 * @throws {@link ToolSearchError} `invalid_argument` for a limit that is unknown or not a positive finite number
 */
export function createLearningRules(limits: Partial<LearningLimits> = {}): LearningRules {
  const resolved = Object.freeze(checkLimits(limits));
  return Object.freeze({
    limits: resolved,
    minCount: MIN_COUNT,
    pruneShare: PRUNE_SHARE,
    termsOf: (terms: readonly string[]) => distinctTerms(terms, resolved.maxTermsPerQuery),
    tokenKey: (token: string) => sha256Base64url(token).slice(0, 16),
    tokenShare: (amount: number, given: { term: number; tool: number }) =>
      Math.min(amount, resolved.tokenCap - given.term, resolved.tokenToolCap - given.tool),
    stepOf: (time: number) => Math.floor(time / resolved.decayStepMs),
    decayFactor: (steps: number) => 0.5 ** ((steps * resolved.decayStepMs) / resolved.halfLifeMs),
    pruneThreshold(counts: number[]): number {
      if (counts.length === 0) return Number.NEGATIVE_INFINITY;
      counts.sort((a, b) => a - b);
      const drop = Math.max(1, Math.ceil(counts.length * PRUNE_SHARE));
      return counts[Math.min(drop, counts.length) - 1]!;
    },
    view(counts: Array<[term: string, count: number]>): LearnedTerms {
      const view: Record<string, number> = Object.create(null);
      counts.sort((a, b) => b[1] - a[1] || compare(a[0], b[0]));
      for (const [term, count] of counts) view[term] = count;
      return Object.freeze(view);
    },
    parseExport: parseLearningExport,
  });
}
