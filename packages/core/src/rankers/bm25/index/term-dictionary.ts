// The term dictionary of a ranker: every analysed term is interned to an integer id
// once, so that an index is built from integer arrays alone. A ranker's indexes share
// one dictionary, so that a patched index reads the postings of the index it patches
// by the same ids; when it passes its cap, the ranker starts a new one (and builds its
// next index fresh), so that a long-lived ranker over changing catalogs stays bounded.

import { ToolSearchError } from '../../../errors.js';

/** The terms a dictionary holds before its ranker starts a new one. */
const DEFAULT_MAX_TERMS = 1 << 20;

/**
 * Interned terms: ids from 0, in order of first sight.
 *
 * @internal
 */
export interface TermDictionary {
  /** The ids of the terms interned so far (it grows as terms are interned). */
  readonly terms: ReadonlyMap<string, number>;
  /** Whether it holds its cap of terms or more: start a new one before the next build. */
  readonly full: boolean;
  /**
   * The id of a term, given it now if it has none. A build interns past the cap: the
   * cap is checked between builds, never in the middle of one.
   *
   * @throws nothing
   */
  intern(term: string): number;
}

/**
 * Creates an empty term dictionary.
 *
 * @param options.maxTerms - the cap, checked between builds @defaultValue 2^20
 * @throws {@link ToolSearchError} `invalid_argument` when `maxTerms` is not a positive integer
 * @internal
 */
export function createTermDictionary(options: { maxTerms?: number } = {}): TermDictionary {
  const maxTerms = options.maxTerms ?? DEFAULT_MAX_TERMS;
  if (!Number.isInteger(maxTerms) || maxTerms < 1) {
    throw new ToolSearchError(
      'invalid_argument',
      `The term dictionary's maxTerms must be a positive integer, got ${String(maxTerms)}.`,
    );
  }
  const terms = new Map<string, number>();
  return {
    terms,
    get full() {
      return terms.size >= maxTerms;
    },
    intern(term) {
      let id = terms.get(term);
      if (id === undefined) {
        id = terms.size;
        terms.set(term, id);
      }
      return id;
    },
  };
}
