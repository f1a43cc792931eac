// What the catalogs of one caller share from turn to turn, held by an object the caller
// holds (one per session, or per runtime that keeps one tool list): the name maps of the
// last lists (a list patched from one of them shares its map, see catalog-names.ts), the
// last index of each v2 ranker (handed to the ranker with the next list's change, so
// that it patches instead of rebuilding) and the default ranker.

import { NameVersion } from './catalog-names.js';
import { ToolSearchError } from './errors.js';
import { LearnedLists } from './learning/learned-tools.js';
import { createBm25Ranker } from './rankers/bm25/index.js';
import type { Ranker, RankerIndex, RankerIndexOptions } from './rankers/ranker.js';
import {
  createToolList,
  differences,
  isToolList,
  PATCH_SHARE,
  sameTools,
  type ToolList,
} from './tool-list.js';
import type { ToolDefinition } from './types.js';

/**
 * What the catalogs of one caller share: the name maps of its last lists, each v2
 * ranker's last index (patched for the next list) and the default ranker. Create one
 * with {@link createCatalogCache} per session and pass it to each of its catalogs.
 */
export interface CatalogCache {
  /** The ranker of this cache's catalogs that are given none (a BM25 ranker of its own). */
  readonly defaultRanker: Ranker;
}

/** A list with its names. @internal */
export interface CatalogList {
  readonly list: ToolList;
  readonly byName: NameVersion;
}

/** How many recent lists a cache keeps at hand for the next list to be patched from. */
const RECENT_LISTS = 2;

class CatalogCacheState implements CatalogCache {
  #ranker: Ranker | undefined;
  // The last few lists, compared tool object by tool object: a catalog is usually built
  // again over the same tools, and re-freezing and re-mapping 10,000 tools each turn
  // would cost more than the ranker's own patch.
  readonly #recent: CatalogList[] = [];
  // A frozen array cannot change, so it is its own key: a caller that keeps one list
  // object per content finds its names again in O(1), for as long as it holds the array.
  readonly #byTools = new WeakMap<readonly ToolDefinition[], CatalogList>();
  readonly #lastIndex = new WeakMap<Ranker, { list: ToolList; index: RankerIndex }>();
  /** The lists with learned terms that catalogs with a learner hand their ranker. */
  readonly learned = new LearnedLists();

  get defaultRanker(): Ranker {
    this.#ranker ??= createBm25Ranker();
    return this.#ranker;
  }

  listOf(tools: readonly ToolDefinition[] | ToolList): CatalogList {
    const given = isToolList(tools) ? tools : undefined;
    const array = given?.tools ?? (tools as readonly ToolDefinition[]);
    const frozen = Object.isFrozen(array);
    if (frozen) {
      const known = this.#byTools.get(array);
      if (known !== undefined) {
        this.#remember(known);
        return known;
      }
    }
    if (given === undefined) {
      for (const recent of this.#recent) if (sameTools(recent.list.tools, array)) return recent;
    }
    const list = given ?? createToolList(array);
    const byName =
      this.#fromChange(list) ?? this.#patchedNames(list.tools) ?? NameVersion.of(list.tools);
    const entry = { list, byName };
    this.#byTools.set(list.tools, entry);
    this.#remember(entry);
    return entry;
  }

  /** The index `ranker` builds over `list`, handed its last index in this cache to patch. */
  async indexOf(ranker: Ranker, list: ToolList): Promise<RankerIndex> {
    if (ranker.specificationVersion !== 'v2') return await ranker.index(list.tools);
    const last = this.#lastIndex.get(ranker);
    let options: RankerIndexOptions = {};
    if (last !== undefined) {
      if (last.list.tools === list.tools) {
        options = { previous: last.index, change: { from: last.list.id, changed: [] } };
      } else if (list.change !== undefined && list.change.from === last.list.id) {
        options = { previous: last.index, change: list.change };
      } else {
        options = { previous: last.index };
      }
    }
    const index = await ranker.index(list.tools, options);
    this.#lastIndex.set(ranker, { list, index });
    return index;
  }

  // The next list of a session is likely patched from this one: keep it at hand.
  #remember(entry: CatalogList): void {
    const recent = this.#recent;
    if (recent[0] === entry) return;
    const at = recent.indexOf(entry);
    if (at >= 0) recent.splice(at, 1);
    recent.unshift(entry);
    if (recent.length > RECENT_LISTS) recent.pop();
  }

  /** The names of a list patched from a recent one, from its change record alone. */
  #fromChange(list: ToolList): NameVersion | undefined {
    const change = list.change;
    if (change === undefined) return undefined;
    const from = this.#recent.find((entry) => entry.list.id === change.from);
    if (from === undefined || from.list.tools.length !== list.tools.length) return undefined;
    if (change.changed.length === 0) return from.byName;
    return from.byName.patch(
      change.changed.map((i) => from.list.tools[i]!),
      change.changed.map((i) => list.tools[i]!),
      list.tools,
    );
  }

  /**
   * The names of a list that differs from a recent one in a few positions (the same
   * length: tools replaced in place, as a server's changed tools are), patched from that
   * list's names; undefined when no recent list is that close.
   */
  #patchedNames(tools: readonly ToolDefinition[]): NameVersion | undefined {
    const limit = Math.floor(tools.length * PATCH_SHARE);
    for (const recent of this.#recent) {
      const old = recent.list.tools;
      if (old.length !== tools.length) continue;
      const changed = differences(old, tools, limit);
      if (changed === undefined) continue;
      return recent.byName.patch(
        changed.map((i) => old[i]!),
        changed.map((i) => tools[i]!),
        tools,
      );
    }
    return undefined;
  }
}

/**
 * Creates a cache for the catalogs of one session (or of a runtime that keeps one tool
 * list): pass it to each `createCatalog` of the session, so that a catalog over the
 * same or a slightly changed list reuses the last one's name map and patches its
 * ranker's index (a v2 ranker gets the previous index and the list's change).
 *
 * @example
 * ```ts
 * const cache = createCatalogCache();
 * const catalog = createCatalog(tools, { cache });
 * ```
 *
 * @returns a new, empty cache
 * @throws nothing
 */
export function createCatalogCache(): CatalogCache {
  return new CatalogCacheState();
}

// The cache of the callers that pass none (`createCatalog(tools)`, the providers' plan):
// they keep today's speed (their default ranker's indexes are patched turn after turn).
// Nothing of ours reads it on another's behalf: the bridge passes its own cache.
let processCache: CatalogCacheState | undefined;

/**
 * The state behind a cache, or the process-wide one when none is given.
 *
 * @throws {@link ToolSearchError} `invalid_argument` for an object `createCatalogCache` did not make
 * @internal
 */
export function cacheState(cache: CatalogCache | undefined): CatalogCacheState {
  if (cache === undefined) {
    processCache ??= new CatalogCacheState();
    return processCache;
  }
  if (!(cache instanceof CatalogCacheState)) {
    throw new ToolSearchError(
      'invalid_argument',
      'createCatalog: options.cache is not a catalog cache. Make one with createCatalogCache().',
    );
  }
  return cache;
}

/**
 * Maps the names of `list` in `cache` (patched from the list its change came from, when
 * the cache holds that one), so that a catalog over it later finds them in O(1): a caller
 * that made the list from a change it found checks the new names at once.
 *
 * @param cache - the caller's cache
 * @param list - the list
 * @returns nothing
 * @throws {@link ToolSearchError} `duplicate_tool_name` when two tools share a name
 * @internal
 */
export function registerToolList(cache: CatalogCache, list: ToolList): void {
  cacheState(cache).listOf(list);
}
