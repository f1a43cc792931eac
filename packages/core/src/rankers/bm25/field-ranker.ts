// The field-weighted BM25 (BM25F) ranker of the default preset, a v2 ranker: indexes a
// tool list (index/), patching the previous index it is given (else its last) for the
// tools that left and arrived, keeps the last few indexes for lists it sees again, and
// searches with query/searcher.ts.
import { createAnalyzer } from '../../analyzer.js';
import { winkInstance } from '../../analyzer-wink.js';
import { sameTools } from '../../tool-list.js';
import type { ToolDefinition } from '../../types.js';
import type { RankerIndex, RankerIndexOptions, RankerV2 } from '../ranker.js';
import type { FieldIndex } from './index/field-index.js';
import { indexTools } from './index/index-tools.js';
import { createTermDictionary } from './index/term-dictionary.js';
import { ToolAnalysis } from './index/tool-analysis.js';
import { SearchScratch } from './query/search-scratch.js';
import { createSearcher } from './query/searcher.js';
import { type Bm25TuningOverrides, resolveBm25Tuning } from './tuning.js';

/** How many recent indexes a ranker keeps for tool lists it sees again. */
const INDEX_CACHE_SIZE = 2;

interface CachedIndex {
  readonly tools: readonly ToolDefinition[];
  readonly index: RankerIndex;
  /** The index the searcher reads, patched by the next list. */
  readonly fieldIndex: FieldIndex;
}

/**
 * Creates the field-weighted BM25 (BM25F) ranker behind the default preset.
 *
 * Speed and memory by design: terms are interned to integers (in a dictionary of the
 * ranker, started again past `internals.maxTerms` terms), postings are slot
 * differences and frequency codes packed in bytes (see postings/posting-format.ts), and
 * a query touches only the postings of its terms and keeps a partial top-k. Indexing the
 * same sequence of tool objects again returns the index built before; indexing a list
 * where a few tools left, arrived or moved analyses only the arrivals and patches the
 * last index (their postings, the average field lengths; document frequencies are
 * counted again as searches need them), sharing the rest: the results are exactly those
 * of a fresh build. The index patched is the contract's `previous` when given (with its
 * `change`, only the changed positions are looked at), else this ranker's last. Keep
 * one ranker (a catalog cache keeps its default one): a new ranker over the same tools
 * analyses them again.
 *
 * @param internals.maxTerms - the terms its dictionary holds before it starts a new one
 *   (and builds its next index fresh) @defaultValue 2^20
 * @throws {@link ToolSearchError} `invalid_argument` for a tuning option out of range or
 *   a `maxTerms` that is not a positive integer
 * @internal
 */
export function createFieldBm25Ranker(
  overrides: Bm25TuningOverrides = {},
  id = 'bm25:default',
  internals: { maxTerms?: number } = {},
): RankerV2 {
  const tuning = resolveBm25Tuning(overrides);
  const analyzer = createAnalyzer(tuning.analyzer);
  const newAnalysis = (): ToolAnalysis =>
    new ToolAnalysis(analyzer, createTermDictionary({ maxTerms: internals.maxTerms }));
  let analysis = newAnalysis();
  const recent: CachedIndex[] = [];
  // The field index behind each index this ranker built, for a `previous` handed back.
  const fieldIndexOf = new WeakMap<RankerIndex, FieldIndex>();
  // Part-of-speech weights per query text, shared by the indexes of this ranker.
  const posCache = new Map<string, Map<string, number>>();
  // The per-slot arrays of searches, shared by this ranker's indexes (searches are synchronous).
  const scratch = new SearchScratch();
  return {
    specificationVersion: 'v2',
    id,
    index(tools: readonly ToolDefinition[], options: RankerIndexOptions = {}): RankerIndex {
      const hit = recent.findIndex((entry) => sameTools(entry.tools, tools));
      if (hit >= 0) {
        const entry = recent[hit]!;
        if (hit > 0) {
          recent.splice(hit, 1);
          recent.unshift(entry);
        }
        return entry.index;
      }
      // Loads the query tagger (wink-nlp, a one-time cost) with the first index rather
      // than in the middle of a first search.
      if (tuning.partOfSpeechWeights !== false) winkInstance('pos');
      if (analysis.dictionary.full) analysis = newAnalysis();
      // The previous index (else the last) is patched for what changed (when it has this
      // dictionary); the change, when given, is relative to the previous index's list.
      const given = options.previous === undefined ? undefined : fieldIndexOf.get(options.previous);
      const fieldIndex = indexTools({
        previous: given ?? recent[0]?.fieldIndex,
        // A frozen list cannot change under the index: it is kept as it is.
        tools: Object.isFrozen(tools) ? tools : [...tools],
        tuning,
        terms: analysis.dictionary.terms,
        analyse: (arrivals) => analysis.analyse(arrivals),
        ...(given === undefined || options.change === undefined
          ? {}
          : { changed: options.change.changed }),
      });
      const index = createSearcher(fieldIndex, { analyzer, tuning, posCache, scratch });
      fieldIndexOf.set(index, fieldIndex);
      recent.unshift({ tools: fieldIndex.tools, index, fieldIndex });
      if (recent.length > INDEX_CACHE_SIZE) recent.pop();
      return index;
    },
  };
}
