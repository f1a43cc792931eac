import { type CatalogCache, cacheState } from './catalog-cache.js';
import { DEFAULT_TOOL_SEARCH_CONFIG } from './config.js';
import { ToolSearchError } from './errors.js';
import type { LearnedTerms } from './learning/learning-types.js';
import { isSearchLearner, type SearchLearner } from './learning/search-learner.js';
import type { Ranker, RankerIndex } from './rankers/ranker.js';
import type { ToolList } from './tool-list.js';
import type { ToolDefinition, ToolSource } from './types.js';

/** The longest description a {@link SearchHit} carries. */
export const SEARCH_HIT_DESCRIPTION_LENGTH = 400;
/**
 * Queries are cut to this many characters before ranking: a guard against megabyte
 * inputs. Long enough for every real query we have seen (the longest, a task with a
 * pasted base64 blob, is 18.7k characters); analyzers bound their own work further.
 */
export const MAX_QUERY_LENGTH = 32_768;

/** One search result of a {@link ToolCatalog}. */
export interface SearchHit {
  /** The tool's name. */
  name: string;
  /** The ranker's score, greater than 0. */
  score: number;
  /** The tool's source, or `'other'` when it has none. */
  source: ToolSource | 'other';
  /** The toolset that holds the tool, when known. */
  toolset?: string;
  /** The first 400 characters of the description. */
  description: string;
}

/** Options of {@link ToolCatalog.search}. */
export interface CatalogSearchOptions {
  /** The most hits to return, at least 1. @defaultValue 5 */
  limit?: number;
}

/**
 * A searchable catalog over a fixed list of tools (the deferred tools of one
 * assembly). Cheap to create: the ranker's index is built on the first search.
 */
export interface ToolCatalog {
  /** The number of tools. */
  readonly size: number;
  /** The id of the ranker behind the catalog. */
  readonly rankerId: string;
  /** The tool names, in catalog order. */
  names(): string[];
  /** Every tool, in catalog order. */
  tools(): readonly ToolDefinition[];
  /** The catalog's list: its tools, identity and change (pass it on to patch from). */
  list(): ToolList;
  /** One tool by exact name. */
  get(name: string): ToolDefinition | undefined;
  /** Whether the catalog holds a tool of that exact name. */
  has(name: string): boolean;
  /**
   * Ranked search over the catalog.
   *
   * @param query - any string; cut to {@link MAX_QUERY_LENGTH} characters
   * @param options.limit - the most hits @defaultValue 5
   * @returns hits, best first, at most `limit`
   * @throws {@link ToolSearchError} `ranker_failed` when the ranker throws or breaks its contract
   */
  search(query: string, options?: CatalogSearchOptions): Promise<SearchHit[]>;
}

/** Options of {@link createCatalog}. */
export interface CatalogOptions {
  /** The ranker, v1 or v2. @defaultValue the cache's `defaultRanker` (a BM25 ranker) */
  ranker?: Ranker;
  /**
   * What the catalogs of one session share (see {@link createCatalogCache}): pass the
   * session's cache to each of its catalogs. @defaultValue a cache of the process, for
   * callers that pass none
   */
  cache?: CatalogCache;
  /**
   * Learning from use (see {@link createSearchLearner}): the ranker indexes each tool
   * with the terms learned for it in `profile` (as {@link ToolDefinition.learnedTerms}),
   * read again at each search, so that new terms patch the index for their tools.
   * @defaultValue none: nothing learned is used
   */
  learner?: SearchLearner;
  /** The learner's profile whose terms this catalog uses. @defaultValue `'default'` */
  profile?: string;
}

function normalizeLimit(limit: unknown): number {
  if (typeof limit !== 'number' || !Number.isFinite(limit)) {
    return DEFAULT_TOOL_SEARCH_CONFIG.searchDefaultLimit;
  }
  return Math.max(1, Math.floor(limit));
}

/**
 * Creates a searchable catalog over a list of tools. Tool objects are treated as
 * immutable. A frozen array (or a {@link ToolList}) is taken as the catalog's list as it
 * is (no copy); a catalog over the same list again, or over a list patched from a recent
 * one (a `ToolList` with its change), reuses the cache's name map, and a v2 ranker gets
 * the cache's previous index with the change, to patch.
 *
 * @example
 * ```ts
 * const catalog = createCatalog(deferredTools);
 * const [best] = await catalog.search('post a message to slack', { limit: 3 });
 * ```
 *
 * @param tools - the tools, names unique, or a {@link ToolList}
 * @param options.ranker - the ranker @defaultValue the cache's default BM25 ranker
 * @param options.cache - the session's {@link CatalogCache} @defaultValue the process's
 * @param options.learner - learning from use: rank with the terms learned for each tool @defaultValue none
 * @param options.profile - the learner's profile @defaultValue `'default'`
 * @returns the catalog
 * @throws {@link ToolSearchError} `duplicate_tool_name` when two tools share a name;
 *   `invalid_argument` for a cache that `createCatalogCache` did not make, or a learner
 *   that `createSearchLearner` did not make
 */
export function createCatalog(
  tools: readonly ToolDefinition[] | ToolList,
  options: CatalogOptions = {},
): ToolCatalog {
  const cache = cacheState(options.cache);
  const ranker = options.ranker ?? cache.defaultRanker;
  const entry = cache.listOf(tools);
  const { byName } = entry;
  const list = entry.list.tools;

  const { learner, profile } = options;
  if (learner !== undefined && !isSearchLearner(learner)) {
    throw new ToolSearchError(
      'invalid_argument',
      'createCatalog: options.learner is not a learner. Make one with createSearchLearner().',
    );
  }
  let learned: { list: ToolList; index: Promise<RankerIndex> } | undefined;
  // With a learner, the list indexed is the catalog's with the profile's learned terms of
  // the moment: a new term patches the index for its tool.
  // A store that fails costs the search its learned terms, never its answer.
  const learnedIndex = (from: SearchLearner): Promise<RankerIndex> => {
    let terms: ReadonlyMap<string, LearnedTerms> | PromiseLike<ReadonlyMap<string, LearnedTerms>>;
    try {
      terms = from.learnedTerms(profile);
    } catch {
      return indexWith(NOTHING_LEARNED);
    }
    // A memory store answers at once: no extra turn of the event loop per search.
    return isPromiseLike(terms)
      ? Promise.resolve(terms).then(indexWith, () => indexWith(NOTHING_LEARNED))
      : indexWith(terms);
  };
  const indexWith = (terms: ReadonlyMap<string, LearnedTerms>): Promise<RankerIndex> => {
    const indexed = cache.learned.listOf(entry.list, terms);
    if (learned === undefined || learned.list !== indexed) {
      const index = cache.indexOf(ranker, indexed);
      const current = { list: indexed, index };
      learned = current;
      index.catch(() => {
        if (learned === current) learned = undefined;
      });
    }
    return learned.index;
  };
  let pending: Promise<RankerIndex> | undefined;
  const getIndex = (): Promise<RankerIndex> => {
    if (learner !== undefined) return learnedIndex(learner);
    if (pending === undefined) {
      pending = cache.indexOf(ranker, entry.list);
      // A failed build is retried by the next search rather than cached.
      pending.catch(() => {
        pending = undefined;
      });
    }
    return pending;
  };

  return {
    size: list.length,
    rankerId: ranker.id,
    names: () => list.map((tool) => tool.name),
    tools: () => list,
    list: () => entry.list,
    get: (name) => byName.get(name),
    has: (name) => byName.has(name),
    async search(query, searchOptions = {}) {
      const limit = normalizeLimit(searchOptions.limit);
      const text = typeof query === 'string' ? query.slice(0, MAX_QUERY_LENGTH) : '';
      if (list.length === 0) return [];
      let ranked: readonly { name: string; score: number }[];
      try {
        const index = await getIndex();
        ranked = await index.search(text, limit);
      } catch (error) {
        throw ToolSearchError.from(error, 'ranker_failed', `Ranker '${ranker.id}' failed`, {
          ranker: ranker.id,
        });
      }
      if (!Array.isArray(ranked)) {
        throw new ToolSearchError(
          'ranker_failed',
          `Ranker '${ranker.id}' returned ${typeof ranked} instead of an array of { name, score }.`,
          { data: { ranker: ranker.id } },
        );
      }
      const hits: SearchHit[] = [];
      const seen = new Set<string>();
      for (const entry of ranked) {
        const tool = entry && typeof entry.name === 'string' ? byName.get(entry.name) : undefined;
        if (tool === undefined) {
          throw new ToolSearchError(
            'ranker_failed',
            `Ranker '${ranker.id}' returned '${String(entry?.name)}', which is not in the catalog.`,
            { data: { ranker: ranker.id } },
          );
        }
        if (!(entry.score > 0) || seen.has(tool.name)) continue;
        seen.add(tool.name);
        hits.push(toHit(tool, entry.score));
      }
      hits.sort((a, b) => b.score - a.score);
      return hits.slice(0, limit);
    },
  };
}

function toHit(tool: ToolDefinition, score: number): SearchHit {
  const hit: SearchHit = {
    name: tool.name,
    score,
    source: tool.source ?? 'other',
    description: (tool.description ?? '').slice(0, SEARCH_HIT_DESCRIPTION_LENGTH),
  };
  if (tool.toolset !== undefined) hit.toolset = tool.toolset;
  return hit;
}

const NOTHING_LEARNED: ReadonlyMap<string, LearnedTerms> = new Map();

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}
