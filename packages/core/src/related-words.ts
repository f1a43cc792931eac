import { ToolSearchError } from './errors.js';
import { defaultExport, lazyModules } from './node-require.js';

// The shipped table (about 1.9 MB of text) is loaded when a query first needs it, not
// when the package is imported: required synchronously where the runtime has a loader,
// else imported when this module loads (a bundler follows the `import()`).
const modules = lazyModules(import.meta.url, {
  table: { id: '../data/related-words.cjs', load: () => import('../data/related-words.cjs') },
});

/** The shipped table's text. */
function shippedText(): string {
  try {
    return defaultExport(modules.get('table')) as string;
  } catch (error) {
    throw new ToolSearchError(
      'module_unavailable',
      `The related-words table (data/related-words.cjs) could not be loaded: ${(error as Error).message}`,
      { cause: error, data: { path: '@tool-search/core/data/related-words.cjs' } },
    );
  }
}

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
 * `#` lines are comments. The text is kept as one string (the shipped table's size:
 * benchmarks guide); a lookup is a binary search over the text itself.
 * The shipped table is a module (`data/related-words.cjs`), not a file read at run time,
 * so it loads on every runtime and in every bundle; it is loaded on first use.
 *
 * @param text - the table's text (default: the shipped table)
 * @returns the table
 * @throws {@link ToolSearchError} `module_unavailable` when the shipped table cannot be loaded
 */
export function loadRelatedWords(text: string = shippedText()): RelatedWords {
  // The lines are searched in the text itself (no index is built: a fresh process
  // answers its first query at once). A line counts when it has a key before a tab and
  // is not a comment; the others are skipped wherever the search lands.
  const valid = (at: number): boolean => {
    if (text.charCodeAt(at) === 0x23 /* # */) return false;
    const tab = text.indexOf('\t', at);
    const end = text.indexOf('\n', at);
    return tab > at && (end < 0 || tab < end);
  };
  const nextLine = (at: number): number => {
    const end = text.indexOf('\n', at);
    return end < 0 ? text.length : end + 1;
  };
  // The start of the first counted line that starts at or after `at`.
  const lineAtOrAfter = (at: number): number => {
    let start = at === 0 || text.charCodeAt(at - 1) === 0x0a ? at : nextLine(at);
    while (start < text.length && !valid(start)) start = nextLine(start);
    return start;
  };
  let size: number | undefined;
  return {
    get size(): number {
      if (size === undefined) {
        size = 0;
        for (let at = lineAtOrAfter(0); at < text.length; at = lineAtOrAfter(nextLine(at))) size++;
      }
      return size;
    },
    get(term: string): readonly string[] | undefined {
      let low = 0;
      let high = text.length;
      while (low < high) {
        const start = lineAtOrAfter((low + high) >>> 1);
        if (start >= high) {
          high = (low + high) >>> 1;
          continue;
        }
        const tab = text.indexOf('\t', start);
        const key = text.slice(start, tab);
        if (key === term) {
          const end = text.indexOf('\n', tab);
          return text.slice(tab + 1, end < 0 ? text.length : end).split(' ');
        }
        if (key < term) low = nextLine(start);
        else high = start;
      }
      return undefined;
    },
  };
}

let shared: RelatedWords | null | undefined = null;

/**
 * The shipped table, loaded and indexed on first use and shared by every ranker of the process.
 *
 * @returns the table
 * @throws {@link ToolSearchError} `module_unavailable` when the shipped table cannot be loaded
 */
export function sharedRelatedWords(): RelatedWords | undefined {
  if (shared === null) shared = loadRelatedWords();
  return shared;
}
