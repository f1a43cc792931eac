import RELATED_WORDS_TEXT from '../data/related-words.js';

/**
 * A read-only table from a term to its related terms (both Porter2 stems, as the
 * default analyzer makes them): the WordNet synonyms, hypernyms, a few hyponyms and
 * derived forms of a word, for expanding query words that a catalog never uses
 * (`apartment` → `housing`, `rental` → `renting`, `lease`).
 */
export interface RelatedWords {
  /** The related terms of `term`, or `undefined` when the table has none. */
  get(term: string): readonly string[] | undefined;
  /** How many terms the table has. */
  readonly size: number;
}

/**
 * Reads a related-words table: lines of `term<TAB>related related ...`, sorted by term,
 * `#` lines are comments. The text is kept as one string with the start of each line
 * in a typed array (the shipped table's size: benchmarks guide); a lookup is a binary search.
 * The shipped table is a module (`data/related-words.js`), not a file read at run time,
 * so it loads on every runtime and in every bundle.
 *
 * @param text - the table's text (default: the shipped table)
 * @returns the table
 * @throws never
 */
export function loadRelatedWords(text: string = RELATED_WORDS_TEXT): RelatedWords {
  const starts: number[] = [];
  for (let at = 0; at < text.length; ) {
    const end = text.indexOf('\n', at);
    const next = end < 0 ? text.length : end + 1;
    const tab = text.indexOf('\t', at);
    if (text.charCodeAt(at) !== 0x23 /* # */ && tab > at && tab < next) starts.push(at);
    at = next;
  }
  const lines = Uint32Array.from(starts);
  const keyAt = (line: number): string => {
    const start = lines[line]!;
    return text.slice(start, text.indexOf('\t', start));
  };
  return {
    size: lines.length,
    get(term: string): readonly string[] | undefined {
      let low = 0;
      let high = lines.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        const key = keyAt(middle);
        if (key === term) {
          const start = text.indexOf('\t', lines[middle]!) + 1;
          const end = text.indexOf('\n', start);
          return text.slice(start, end < 0 ? text.length : end).split(' ');
        }
        if (key < term) low = middle + 1;
        else high = middle;
      }
      return undefined;
    },
  };
}

let shared: RelatedWords | null | undefined = null;

/**
 * The shipped table, indexed on first use and shared by every ranker of the process.
 *
 * @returns the table
 * @throws never
 */
export function sharedRelatedWords(): RelatedWords | undefined {
  if (shared === null) shared = loadRelatedWords();
  return shared;
}
