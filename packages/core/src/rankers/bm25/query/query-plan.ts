// The plan of a query: which terms it searches, with which weights, before any posting
// is read. The query's own terms count once each, weighted by their part of speech;
// synonyms, the kinds of things it mentions (a path, a URL) and the related words of
// the words the catalog never uses are added at their lower weights.

import type { Analyzer } from '../../../analyzer.js';
import { sharedRelatedWords } from '../../../related-words.js';
import type { Bm25Tuning } from '../tuning.js';
import { partOfSpeechWeights } from './part-of-speech.js';
import { type Expansions, mentionedKinds } from './query-expansion.js';

/**
 * What {@link planQuery} reads besides the query.
 *
 * @internal
 */
export interface PlanContext {
  readonly analyzer: Analyzer;
  readonly tuning: Bm25Tuning;
  /** The term ids of the index's dictionary. */
  readonly terms: ReadonlyMap<string, number>;
  /** Whether a term id is in no alive tool of the index (or unknown to it). */
  readonly isEmpty: (id: number) => boolean;
  readonly expansions: Expansions | undefined;
  /** Part-of-speech weights per query text, shared by the indexes of a ranker. */
  readonly posCache: Map<string, Map<string, number>>;
  /** Whether the plan lists the query's content words (for the relevance floor). */
  readonly withWords: boolean;
}

/**
 * The plan of one query.
 *
 * @internal
 */
export interface QueryPlan {
  /** The query's analysed terms, in order. */
  readonly analysed: readonly string[];
  /** Per analysed term: its id, or -1 when the dictionary has none. */
  readonly termIds: readonly number[];
  /** The distinct term ids searched, the query's own first, each with its weight. */
  readonly ids: readonly number[];
  readonly factors: readonly number[];
  /** Per searched term: the content word it stands for (-1: none), and its credit. */
  readonly origins: readonly number[];
  readonly credits: readonly number[];
  /** The query's distinct content words (empty without `withWords`). */
  readonly words: readonly string[];
  /** The part-of-speech weights by term, when the query was tagged. */
  readonly partOfSpeech: ReadonlyMap<string, number> | undefined;
  /** The term ids that stand beside another query term (proximity pairs), in pairs. */
  readonly paired: readonly number[];
}

/**
 * Plans a query: analyses it and lists the terms to search.
 *
 * @throws whatever the analyzer throws
 * @internal
 */
export function planQuery(query: string, context: PlanContext): QueryPlan {
  const { analyzer, tuning, terms, isEmpty, expansions } = context;
  let previous = -1;
  const ids: number[] = [];
  const factors: number[] = [];
  const analysed = analyzer.analyze(query);
  const termIds: number[] = [];
  const words: string[] = [];
  const origins: number[] = [];
  const credits: number[] = [];
  const wordOf = (term: string): number => {
    if (!context.withWords) return -1;
    const at = words.indexOf(term);
    return at >= 0 ? at : words.push(term) - 1;
  };
  for (const term of analysed) {
    const id = terms.get(term);
    termIds.push(id ?? -1);
    const word = wordOf(term);
    if (id === undefined || isEmpty(id)) continue;
    if (id !== previous && !ids.includes(id)) {
      ids.push(id);
      factors.push(1);
      origins.push(word);
      credits.push(1);
    }
    previous = id;
  }
  let partOfSpeech: Map<string, number> | undefined;
  if (tuning.partOfSpeechWeights !== false && ids.length > 1) {
    partOfSpeech = partOfSpeechWeights(
      query,
      analyzer,
      tuning.partOfSpeechWeights,
      context.posCache,
    );
    for (let i = 0; i < analysed.length; i++) {
      const weight = partOfSpeech.get(analysed[i]!);
      if (weight === undefined) continue;
      const q = ids.indexOf(termIds[i]!);
      if (q >= 0) factors[q] = weight;
    }
  }
  const expansionCredit =
    tuning.relevanceFloor === false ? 0 : tuning.relevanceFloor.expansionCredit;
  const add = (term: string, factor: number, origin: number): void => {
    const id = terms.get(term);
    if (id === undefined || isEmpty(id)) return;
    if (ids.includes(id)) return;
    ids.push(id);
    factors.push(factor);
    origins.push(origin);
    credits.push(expansionCredit);
  };
  if (expansions !== undefined) {
    const weight = tuning.expansionWeight;
    for (const term of analysed) {
      const synonyms = expansions.synonyms.get(term);
      if (synonyms === undefined) continue;
      for (const synonym of synonyms) add(synonym, weight, wordOf(term));
    }
    for (const term of mentionedKinds(query, expansions)) add(term, weight, -1);
  }
  if (
    tuning.relatedWords &&
    tuning.relatedWordsWeight > 0 &&
    tuning.analyzer.normalize === 'stem'
  ) {
    // Only the words the catalog does not use: they match nothing as they are.
    const table = sharedRelatedWords();
    for (let i = 0; i < analysed.length && table !== undefined; i++) {
      if (termIds[i]! >= 0 && ids.includes(termIds[i]!)) continue;
      const related = table.get(analysed[i]!);
      if (related !== undefined) {
        for (const term of related) add(term, tuning.relatedWordsWeight, wordOf(analysed[i]!));
      }
    }
  }
  const paired: number[] = [];
  for (let i = 1; i < termIds.length; i++) {
    if (termIds[i - 1]! >= 0 && termIds[i]! >= 0) paired.push(termIds[i - 1]!, termIds[i]!);
  }
  return { analysed, termIds, ids, factors, origins, credits, words, partOfSpeech, paired };
}
