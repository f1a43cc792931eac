// Query expansion: the terms a query adds besides its own words, at a lower weight.
// Synonyms from a table (`save` → `write`), and `file` or `url` for a path or a URL the
// query mentions. (Related WordNet words are added by the searcher, which alone knows
// which query words the catalog never uses.)

import type { Analyzer } from '../../../analyzer.js';
import { type Bm25Tuning, DEFAULT_QUERY_SYNONYMS, MAX_QUERY_SCAN } from '../tuning.js';

/**
 * The analysed synonym table and kind words of a ranker's query expansion.
 *
 * @internal
 */
export interface Expansions {
  synonyms: Map<string, string[]>;
  file: string[];
  url: string[];
}

// Per tuning object (one per ranker), so that a ranker analyses its table once.
const expansionCache = new WeakMap<Bm25Tuning, Expansions | undefined>();

/**
 * The query expansion of a tuning, analysed as its analyzer does; `undefined` when the
 * tuning turns expansion off.
 *
 * @internal
 */
export function expansionsFor(analyzer: Analyzer, tuning: Bm25Tuning): Expansions | undefined {
  if (expansionCache.has(tuning)) return expansionCache.get(tuning);
  let expansions: Expansions | undefined;
  if (tuning.synonyms !== false && tuning.expansionWeight > 0) {
    const table = tuning.synonyms === true ? DEFAULT_QUERY_SYNONYMS : tuning.synonyms;
    const synonyms = new Map<string, string[]>();
    for (const [word, others] of Object.entries(table)) {
      const [key] = analyzer.analyze(word);
      if (key === undefined) continue;
      const list = synonyms.get(key) ?? [];
      for (const other of others) for (const term of analyzer.analyze(other)) list.push(term);
      synonyms.set(key, list);
    }
    expansions = { synonyms, file: analyzer.analyze('file'), url: analyzer.analyze('url') };
  }
  expansionCache.set(tuning, expansions);
  return expansions;
}

const FILE_EXTENSION =
  /\.(?:md|txt|csv|tsv|xlsx?|docx?|pdf|json|ya?ml|xml|png|jpe?g|gif|svg|pptx?|py|js|ts|html?|log|zip|bib)$/i;
const PATH_START = /^(?:~|\.{1,2})?\/[^/\s]+\/|^[A-Za-z]:\\/;
const URL_START = /^(?:https?:\/\/|www\.)/i;

/**
 * Whether a word holds a character every URL, path and file name above has (`.`, `/` or
 * `\`): most words do not, and skip the patterns (a pattern's compiled code is dropped by
 * a full garbage collection, so each first use after one compiles it again).
 */
function mayNameFileOrUrl(word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const code = word.charCodeAt(i);
    if (code === 46 || code === 47 || code === 92) return true;
  }
  return false;
}

/**
 * The kind words of the file paths and URLs a query mentions (a whitespace scan, linear).
 *
 * @internal
 */
export function mentionedKinds(query: string, expansions: Expansions): string[] {
  const kinds: string[] = [];
  let file = false;
  let url = false;
  for (const word of query.slice(0, MAX_QUERY_SCAN).split(/\s+/)) {
    if (word.length < 3 || word.length > 512 || !mayNameFileOrUrl(word)) continue;
    const bare = word.replace(/[.,;:!?)\]'"`]+$/, '');
    if (!url && URL_START.test(bare)) url = true;
    else if (!file && (PATH_START.test(bare) || FILE_EXTENSION.test(bare))) file = true;
  }
  if (file) kinds.push(...expansions.file);
  if (url) kinds.push(...expansions.url);
  return kinds;
}
