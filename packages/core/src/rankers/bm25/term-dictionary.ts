// The term dictionary: every analysed term is interned to an integer id once, so that
// an index over cached per-tool vectors is built from integer arrays alone. It is
// bounded: past its limit it starts over with a new generation, and vectors of an
// older generation are analysed again.
//
// Module-level state on purpose: a tool's vector is memoized per tool object for every
// ranker of the process (see field-ranker.ts), so its term ids must mean the same in
// every index built from it; a dictionary per ranker would analyse each tool again.

const MAX_DICTIONARY_SIZE = 1 << 20;
let dictionary = new Map<string, number>();
let generation = 0;

/**
 * The id of a term, given it now if it has none.
 *
 * @internal
 */
export function internTerm(term: string): number {
  let id = dictionary.get(term);
  if (id === undefined) {
    id = dictionary.size;
    dictionary.set(term, id);
  }
  return id;
}

/**
 * The current dictionary. A full dictionary is replaced, never cleared, so a searcher
 * keeps reading the one its index was built with.
 *
 * @internal
 */
export function currentTerms(): ReadonlyMap<string, number> {
  return dictionary;
}

/**
 * The current generation: a vector made with another one holds ids of a dropped dictionary.
 *
 * @internal
 */
export function currentGeneration(): number {
  return generation;
}

/**
 * Starts a new, empty dictionary (the next generation) when the current one is full.
 * Call it before an index build, never in the middle of one.
 *
 * @internal
 */
export function renewTermsIfFull(): void {
  if (dictionary.size >= MAX_DICTIONARY_SIZE) {
    dictionary = new Map();
    generation++;
  }
}
