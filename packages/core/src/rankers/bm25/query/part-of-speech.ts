// Part-of-speech weights of query terms: wink-nlp's tagger runs over the query (once per
// distinct query text, cached), and each term takes the weight of the word it came
// from, so that the nouns of a request weigh more than its verbs.

import type { Analyzer } from '../../../analyzer.js';
import { winkInstanceFor } from '../../../analyzer-wink.js';
import { MAX_QUERY_SCAN } from '../tuning.js';

/** How many distinct query texts a ranker remembers the part-of-speech weights of. */
const POS_CACHE_SIZE = 256;
/** The tagger reads this much of a query; terms past it weigh 1. */
const MAX_TAGGED_LENGTH = 1_024;
// wink-nlp's tokenizer slows down on long unbroken runs (measured in the benchmarks
// guide): runs this long are not words, and are left out of tagging.
const UNTAGGED_RUN = /\S{33,}/g;

/**
 * The weight of each analysed term of a query by the part of speech of the word it came
 * from (wink-nlp's tagger; the largest weight when a term comes from several words).
 * Only the first 1,024 characters are tagged, without runs of more than 32 non-space
 * characters (blobs, long URLs): terms from elsewhere keep weight 1. Cached per query
 * text (its first 4,096 characters), oldest out first.
 *
 * @internal
 */
export function partOfSpeechWeights(
  query: string,
  analyzer: Analyzer,
  table: Readonly<Record<string, number>>,
  cache: Map<string, Map<string, number>>,
): Map<string, number> {
  const text = query.length > MAX_QUERY_SCAN ? query.slice(0, MAX_QUERY_SCAN) : query;
  const cached = cache.get(text);
  if (cached !== undefined) return cached;
  const tagged = text.slice(0, MAX_TAGGED_LENGTH).replace(UNTAGGED_RUN, ' ');
  // A bounded instance: the tagger adds the query's new words to wink-nlp's lexicon.
  const nlp = winkInstanceFor('pos', tagged);
  const tokens = nlp.readDoc(tagged).tokens();
  const values = tokens.out(nlp.its.value) as string[];
  const tags = tokens.out(nlp.its.pos) as string[];
  const weights = new Map<string, number>();
  for (let i = 0; i < values.length; i++) {
    const weight = table[tags[i]!] ?? 1;
    for (const term of analyzer.analyze(values[i]!)) {
      const known = weights.get(term);
      if (known === undefined || weight > known) weights.set(term, weight);
    }
  }
  if (cache.size >= POS_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(text, weights);
  return weights;
}
