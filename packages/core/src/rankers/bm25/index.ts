// The BM25 rankers' entry point: `createBm25Ranker` picks the preset, the default
// BM25F ranker (field-ranker.ts, tuned in tuning.ts) or the reference one (spec-ranker.ts).

import type { AnalyzerOptions } from '../../analyzer.js';
import { ToolSearchError } from '../../errors.js';
import type { Ranker } from '../ranker.js';
import { createFieldBm25Ranker } from './field-ranker.js';
import { createSpecBm25Ranker } from './spec-ranker.js';
import type { Bm25TuningOverrides } from './tuning.js';

/** The BM25 presets: `default`, the best measured, and `spec`, the reference behaviour. */
export type Bm25Preset = 'default' | 'spec';

/** Options of {@link createBm25Ranker}. */
export interface Bm25RankerOptions extends Bm25TuningOverrides {
  /**
   * `spec` reproduces the reference ranking exactly (see the DESIGN contract);
   * `default` is the best ranker measured with `tools/eval`. The tuning options below
   * apply to `default` only.
   * @defaultValue 'default'
   */
  preset?: Bm25Preset;
  /** Text analysis of the default preset. @defaultValue stems, stop words, split identifiers */
  analyzer?: AnalyzerOptions;
}

/**
 * Creates a BM25 ranker.
 *
 * The `default` preset is a field-weighted BM25 (BM25F) over {@link createAnalyzer}'s
 * terms (identifiers split, Porter2 stems, stop words dropped, CJK bigrams): the tool's
 * name weighs 6, its description 1, parameter names 1.5, parameter descriptions and
 * enum values 0.8, its toolset 0.5 (see {@link DEFAULT_BM25_TUNING}); each distinct
 * query term counts once; query words also look for their synonyms in tool vocabulary
 * ({@link DEFAULT_QUERY_SYNONYMS}: `save` → `write`, `email` → `mail`, ...) and a path or
 * URL in the query for `file` or `url`, at half weight; a query word the catalog never
 * uses looks for its WordNet relatives instead (`apartment` → `housing`, `rental` →
 * `lease`, at 0.3; the table ships in the package as the module `data/related-words.cjs`); the
 * best few toolsets (or `server__` name prefixes) lift their sibling tools a little; a
 * query that is exactly a tool's name ranks it first, and so do the tools whose names
 * it quotes as identifiers (`use sort_list`); query words are weighted by their part of speech
 * (wink-nlp's tagger: nouns 1, verbs and adjectives 0.7, adverbs and numbers 0.5, see
 * {@link DEFAULT_PART_OF_SPEECH_WEIGHTS}); two query words that stand side by side in the
 * first sentence of a tool's description add a bonus; when nothing matches, tools whose
 * name contains the query score 0.1. With `relevanceFloor`, a query no tool fits (its
 * words spread one a tool over several tools) gets nothing and hits that hold too little
 * of the query (a sibling lifted by its toolset alone) are dropped. A ranker
 * remembers its last indexes by their tool objects and patches one for a list where
 * a few tools changed, so rebuilding the catalog every turn is cheap: keep one ranker.
 *
 * `preset: 'spec'` reproduces the reference behaviour exactly: document = tool name
 * with `_ . - :` as spaces + description + top-level parameter names; tokens =
 * lowercased `[a-z0-9]+`; k1 = 1.5, b = 0.75; idf = ln(1 + (N − df + 0.5) / (df + 0.5));
 * avgdl floored at 1; when no tool scores above 0, tools whose lowercased name
 * contains the lowercased query score 0.1; ties keep catalog order. (An empty query
 * returns no hits.)
 *
 * @example
 * ```ts
 * const catalog = createCatalog(tools, { ranker: createBm25Ranker() });
 * const hits = await catalog.search('create a github issue');
 * ```
 *
 * @param options.preset - `default` or `spec` @defaultValue 'default'
 * @param options.analyzer - analysis options of the default preset
 * @param options.fields - per-field `{ weight, b }` of the default preset
 * @param options.k1 - term-frequency saturation of the default preset @defaultValue 1.6
 * @param options.groupBoost - the sibling lift of the default preset, 0 to turn off @defaultValue 0.3
 * @param options.groupTop - how many groups are lifted @defaultValue 5
 * @param options.exactNameFirst - rank an exact name match first @defaultValue true
 * @param options.synonyms - query expansion: `true`, `false` or your own synonym table @defaultValue true
 * @param options.expansionWeight - the weight of an added term @defaultValue 0.5
 * @param options.relatedWords - expand the query words the catalog never uses with their WordNet relatives @defaultValue true
 * @param options.relatedWordsWeight - the weight of a related word @defaultValue 0.3
 * @param options.partOfSpeechWeights - query-word weights by tag, or `false` to weigh every word 1
 * @param options.proximityWeight - the side-by-side bonus, 0 to turn off @defaultValue 0.5
 * @param options.relevanceFloor - answer only what fits: `true` for {@link DEFAULT_RELEVANCE_FLOOR}, some of its settings, or `false` for every match (see {@link RelevanceFloor}) @defaultValue false
 * @returns a {@link Ranker} with id `bm25:default` or `bm25:spec`
 * @throws {@link ToolSearchError} `invalid_argument` for an unknown preset or analyzer option, or a relevance floor setting out of range
 */
export function createBm25Ranker(options: Bm25RankerOptions = {}): Ranker {
  const { preset = 'default', ...tuning } = options;
  if (preset === 'spec') return createSpecBm25Ranker();
  if (preset === 'default') {
    const tuned = Object.keys(tuning).length > 0;
    return createFieldBm25Ranker(tuning, tuned ? 'bm25:default:tuned' : 'bm25:default');
  }
  throw new ToolSearchError(
    'invalid_argument',
    `Unknown BM25 preset '${String(preset)}'. Use 'default' or 'spec'.`,
  );
}
