// The relevance floor of the default preset: its settings and their defaults. The
// coverage it cuts on is tracked by coverage-tracker.ts while the searcher walks postings.

import { ToolSearchError } from '../../errors.js';

/**
 * The relevance floor of the default preset: evidence, beyond the raw score, that a hit
 * fits the query. Its measure is coverage: the share of the query's content words a tool
 * holds, each word weighted by its rarity in the catalog (idf) and its part of speech. A
 * word counts in full when the tool's name or description holds it, partly when only its
 * parameters or toolset label do or only a synonym or related word matches.
 *
 * Two cuts: the query is answered at all only if it fits, i.e. some tool holds at least
 * `minWords` of its content words (those the catalog uses) or covers `fitCoverage` of it
 * alone; and each hit must cover `minCoverage`, so that a tool lifted only as a sibling
 * of a strong match (it covers nothing) is never a hit on its own. A tool named exactly
 * by the query always passes. Hits that pass keep their scores and their order; when
 * none does, the search answers nothing, so that a model concludes instead of rephrasing.
 */
export interface RelevanceFloor {
  /**
   * The share of the query's weighted content words a hit must cover, in [0, 1].
   * @defaultValue 0.05
   */
  minCoverage: number;
  /**
   * The query fits when some tool holds at least this many of its content words that the
   * catalog uses (all of them when the query has fewer), each through its own term: a
   * query whose words are spread one a tool over several tools gets nothing.
   * @defaultValue 2
   */
  minWords: number;
  /**
   * The query also fits when one tool alone covers this share of its weighted content
   * words, however few words that is.
   * @defaultValue 0.3
   */
  fitCoverage: number;
  /**
   * How much a query word the catalog never uses weighs against a used word of the same
   * rarity: 1 counts it in full (the catalog lacks what the query asks for), 0 ignores it.
   * @defaultValue 0.5
   */
  unknownWordWeight: number;
  /**
   * The credit of a word found only in a tool's parameters or toolset label, against 1
   * in its name or description.
   * @defaultValue 0.5
   */
  weakFieldCredit: number;
  /**
   * The credit of a word covered only through a synonym or a related word.
   * @defaultValue 0.5
   */
  expansionCredit: number;
}

/** The floor of the default preset (see {@link RelevanceFloor}). */
export const DEFAULT_RELEVANCE_FLOOR: Readonly<RelevanceFloor> = Object.freeze({
  minCoverage: 0.05,
  minWords: 2,
  fitCoverage: 0.3,
  unknownWordWeight: 0.5,
  weakFieldCredit: 0.5,
  expansionCredit: 0.5,
});

/**
 * The floor a `relevanceFloor` option stands for: `true` the default one, `false` none,
 * an object the default with its settings in place.
 *
 * @param option - the caller's `relevanceFloor`
 * @returns the floor to apply, or `false`
 * @throws {@link ToolSearchError} `invalid_argument` when a setting is not a number in [0, 1]
 * @internal
 */
export function resolveRelevanceFloor(
  option: boolean | Partial<RelevanceFloor>,
): false | Readonly<RelevanceFloor> {
  if (option === false) return false;
  if (option === true) return DEFAULT_RELEVANCE_FLOOR;
  const floor = { ...DEFAULT_RELEVANCE_FLOOR, ...option };
  for (const key of Object.keys(DEFAULT_RELEVANCE_FLOOR) as (keyof RelevanceFloor)[]) {
    const value = floor[key];
    const valid =
      key === 'minWords'
        ? Number.isInteger(value) && value >= 0
        : typeof value === 'number' && value >= 0 && value <= 1;
    if (!valid) {
      throw new ToolSearchError(
        'invalid_argument',
        `relevanceFloor.${key} must be ${key === 'minWords' ? 'a whole number from 0' : 'a number from 0 to 1'}, got ${String(value)}.`,
      );
    }
  }
  return floor;
}
