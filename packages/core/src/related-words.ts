import { readFileSync } from 'node:fs';

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

/** The table shipped with the package (see `data/README.md`). */
export const RELATED_WORDS_FILE = new URL('../data/related-words.txt', import.meta.url);

/**
 * Reads a related-words file: lines of `term<TAB>related related ...`, sorted by term,
 * `#` lines are comments. The text is kept as one string with the start of each line
 * in a typed array (the shipped table's size: benchmarks guide); a lookup is a binary search.
 *
 * @returns the table, or `undefined` when the file cannot be read (a bundle that left
 *   the data file out): expansion is then off, and search otherwise works as before
 * @throws never
 */
export function loadRelatedWords(
  file: URL | string = RELATED_WORDS_FILE,
): RelatedWords | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'latin1');
  } catch {
    return undefined;
  }
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
 * The shipped table, read on first use and shared by every ranker of the process.
 *
 * @returns the table, or `undefined` when its file is missing
 * @throws never
 */
export function sharedRelatedWords(): RelatedWords | undefined {
  if (shared === null) shared = loadRelatedWords();
  return shared;
}
