// The tuning of the default preset's BM25F ranker: every knob a caller may set, with
// its documentation, and the defaults measured best with `tools/eval`. Read this file
// first to see what the default preset does; the other files of this folder do it.

import type { AnalyzerOptions } from '../../analyzer.js';
import { TOOL_FIELDS, type ToolField } from '../../analyzer-fields.js';
import { type RelevanceFloor, resolveRelevanceFloor } from './relevance-floor.js';

/** The weight and the length normalisation of one field in BM25F. */
export interface Bm25FieldParameters {
  /** How much one occurrence in this field counts against one in the description. */
  weight: number;
  /** Length normalisation in [0, 1]: 0 ignores the field's length, 1 normalises fully. */
  b: number;
}

/** The tuning of the field-weighted (BM25F) ranker of the default preset. */
export interface Bm25Tuning {
  /** Text analysis of documents and queries. */
  analyzer: AnalyzerOptions;
  /** Per-field weight and length normalisation. */
  fields: Record<ToolField, Bm25FieldParameters>;
  /** Term-frequency saturation. */
  k1: number;
  /**
   * Adds this share of the best score in a tool's group (its toolset, else the
   * `server__` prefix of its name) to every tool of the best groups, so that the
   * sibling tools of a strong match surface too. 0 turns it off.
   */
  groupBoost: number;
  /** How many of the best-scoring groups get the boost. */
  groupTop: number;
  /**
   * A query that is exactly a tool's name (any case or separators) ranks that tool
   * first; so does a tool whose name the query quotes as an identifier (`use the
   * 'sort_list' function`, `github.create_issue`, `getWeather`: a word with `_`, `.`,
   * `-` or a lower-to-upper case step), after the exact match, in the order quoted.
   */
  exactNameFirst: boolean;
  /**
   * Query expansion: each query word also looks for its synonyms among the words tools
   * use (`save` → `write`, `email` → `mail`, `picture` → `image`, ...; see
   * {@link DEFAULT_QUERY_SYNONYMS}), and a file path or a URL in the query also looks for
   * `file` or `url`. Added terms weigh `expansionWeight` of a query word. `false` turns
   * it off; an object replaces the synonym table.
   */
  synonyms: boolean | Readonly<Record<string, readonly string[]>>;
  /** The weight of a term added by query expansion, against 1 for a query word. */
  expansionWeight: number;
  /**
   * Related-word expansion of the query words the catalog never uses: such a word
   * looks for its WordNet relatives instead (synonyms, broader and a few narrower words,
   * derived forms: `apartment` → `housing`, `rental` → `renting`, `lease`), each at
   * `relatedWordsWeight`. Words the catalog uses are never expanded, so this only adds
   * matches where there were none. Needs the `'stem'` analyzer (the table holds stems);
   * the table (shipped in the package) is read on the first query that
   * needs it. `false` turns it off.
   */
  relatedWords: boolean;
  /** The weight of a related word, against 1 for a query word. */
  relatedWordsWeight: number;
  /**
   * Query-term weights by part of speech, from the wink-nlp tagger run over the query
   * (once per distinct query text, cached): a term takes the weight of the word it came
   * from (`VERB`, `ADJ`, `ADV`, `NUM`, ... as wink-nlp tags them; an untagged part of
   * speech weighs 1). The default weighs the nouns of a request over its verbs,
   * adjectives, adverbs and numbers. `false` turns it off.
   */
  partOfSpeechWeights: false | Readonly<Record<string, number>>;
  /**
   * Proximity: two adjacent query terms that are also adjacent, in the same order, in
   * the first sentence of a tool's description (after stemming and stop words: the query
   * `label issues` and the sentence `Labels an issue.` share `label issu`) add the
   * pair's idf × this weight to the tool's score. 0 turns it off.
   */
  proximityWeight: number;
  /**
   * The relevance floor: a hit must cover enough of the query's content words (weighted
   * by rarity) to be returned, so that a query nothing fits gets no answer. `false`
   * returns every tool that matches anything. See {@link RelevanceFloor}.
   */
  relevanceFloor: false | Readonly<RelevanceFloor>;
  /**
   * Learning from use: the weight of a tool's learned terms
   * ({@link ToolDefinition.learnedTerms}), a field of their own. A query term the tool
   * learned adds `learnedWeight × idf × c / (c + learnedSaturation)` (its part-of-speech
   * weight applied; `c` the term's count, idf over the tools holding the term in their text or their learned terms), so a tool's
   * lift is bounded by `learnedWeight` × the query's idf (plus the group lift's share of
   * it): it lifts a tool and never takes
   * score from another. 0 turns it off.
   */
  learnedWeight: number;
  /** The count at which a learned term gives half its weight. */
  learnedSaturation: number;
  /**
   * The factor on the score of a tool whose own description says it is deprecated
   * ("DEPRECATED: Use read_text_file instead.", "This tool is deprecated"); such a tool
   * also ranks just below a tool its description names (its replacement) whenever that
   * one scores. 1 turns both off.
   */
  deprecatedWeight: number;
}

/**
 * The synonyms of the default query expansion: words of requests mapped to the words
 * tool descriptions use for the same action or object. Kept short and general on purpose.
 */
export const DEFAULT_QUERY_SYNONYMS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  save: ['write', 'store'],
  store: ['save', 'write'],
  write: ['save'],
  find: ['search', 'lookup'],
  search: ['find', 'lookup', 'query'],
  lookup: ['search', 'find'],
  remove: ['delete'],
  delete: ['remove'],
  fetch: ['get', 'retrieve', 'download'],
  retrieve: ['get', 'fetch'],
  download: ['fetch', 'get'],
  show: ['get', 'display', 'view'],
  display: ['show', 'view'],
  view: ['show', 'read'],
  picture: ['image', 'photo'],
  photo: ['image', 'picture'],
  image: ['picture', 'photo'],
  modify: ['update', 'edit'],
  edit: ['update', 'modify'],
  change: ['update', 'modify'],
  update: ['edit', 'modify'],
  make: ['create'],
  build: ['create'],
  generate: ['create'],
  create: ['make', 'generate'],
  folder: ['directory'],
  directory: ['folder'],
  email: ['mail', 'gmail'],
  mail: ['email'],
  gmail: ['email'],
  price: ['cost', 'quote'],
  cost: ['price'],
  run: ['execute'],
  execute: ['run'],
  start: ['launch', 'run'],
  launch: ['start', 'open'],
  open: ['launch'],
  list: ['show'],
  text: ['message'],
  message: ['text'],
  chat: ['message'],
  website: ['web', 'site', 'url'],
  site: ['website', 'web'],
  page: ['web'],
  web: ['website', 'page'],
});

/**
 * The part-of-speech weights of the default preset: nouns and proper nouns weigh 1,
 * verbs and adjectives 0.7, adverbs and numbers 0.5.
 */
export const DEFAULT_PART_OF_SPEECH_WEIGHTS: Readonly<Record<string, number>> = Object.freeze({
  VERB: 0.7,
  ADJ: 0.7,
  ADV: 0.5,
  NUM: 0.5,
});

/**
 * The tuning of the default preset: the best measured with `tools/eval` (see its README
 * for what each part is worth).
 */
export const DEFAULT_BM25_TUNING: Readonly<Bm25Tuning> = Object.freeze({
  analyzer: Object.freeze({ normalize: 'stem', stopWords: true, splitIdentifiers: true }),
  fields: Object.freeze({
    name: Object.freeze({ weight: 6, b: 0.5 }),
    description: Object.freeze({ weight: 1, b: 0.3 }),
    parameterNames: Object.freeze({ weight: 1.5, b: 0 }),
    parameterDescriptions: Object.freeze({ weight: 0.8, b: 0.3 }),
    label: Object.freeze({ weight: 0.5, b: 0 }),
  }),
  k1: 1.6,
  groupBoost: 0.3,
  groupTop: 5,
  exactNameFirst: true,
  synonyms: true,
  expansionWeight: 0.5,
  relatedWords: true,
  relatedWordsWeight: 0.3,
  partOfSpeechWeights: DEFAULT_PART_OF_SPEECH_WEIGHTS,
  proximityWeight: 0.5,
  relevanceFloor: false,
  learnedWeight: 2,
  learnedSaturation: 2,
  deprecatedWeight: 0.7,
}) as Readonly<Bm25Tuning>;

/** A partial {@link Bm25Tuning}: fields may be given one by one. */
export type Bm25TuningOverrides = Partial<Omit<Bm25Tuning, 'fields' | 'relevanceFloor'>> & {
  fields?: Partial<Record<ToolField, Partial<Bm25FieldParameters>>>;
  /** `true` for the default floor, `false` for none, or some of its settings. */
  relevanceFloor?: boolean | Partial<RelevanceFloor>;
};

/**
 * Fills a partial tuning in from {@link DEFAULT_BM25_TUNING}.
 *
 * @internal
 */
export function resolveBm25Tuning(overrides: Bm25TuningOverrides = {}): Bm25Tuning {
  const fields = {} as Record<ToolField, Bm25FieldParameters>;
  for (const field of TOOL_FIELDS) {
    fields[field] = { ...DEFAULT_BM25_TUNING.fields[field], ...overrides.fields?.[field] };
  }
  return {
    ...DEFAULT_BM25_TUNING,
    ...overrides,
    analyzer: { ...DEFAULT_BM25_TUNING.analyzer, ...overrides.analyzer },
    fields,
    relevanceFloor:
      overrides.relevanceFloor === undefined
        ? DEFAULT_BM25_TUNING.relevanceFloor
        : resolveRelevanceFloor(overrides.relevanceFloor),
  };
}

/**
 * How much of a query the linear scans read (identifier-like words, paths and URLs,
 * the part-of-speech cache key): the first 4,096 characters.
 *
 * @internal
 */
export const MAX_QUERY_SCAN = 4_096;
