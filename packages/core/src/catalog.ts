import { NameVersion } from './catalog-names.js';
import { DEFAULT_TOOL_SEARCH_CONFIG } from './config.js';
import { ToolSearchError } from './errors.js';
import { createBm25Ranker } from './rankers/bm25/index.js';
import type { Ranker, RankerIndex } from './rankers/ranker.js';
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
  /** The ranker. @defaultValue `createBm25Ranker()` */
  ranker?: Ranker;
}

let sharedDefaultRanker: Ranker | undefined;

// One default ranker for every catalog, so that the indexes it remembers are shared.
function defaultRanker(): Ranker {
  if (sharedDefaultRanker === undefined) sharedDefaultRanker = createBm25Ranker();
  return sharedDefaultRanker;
}

interface CatalogList {
  list: readonly ToolDefinition[];
  byName: NameVersion;
}

// The last few lists, compared tool object by tool object: the catalog is rebuilt on
// every assembly, usually over the same tools, and re-freezing and re-mapping 10,000
// tools each turn would cost more than the ranker's own memoized rebuild. Keyed by
// content (tool identities), never by session.
const recentLists: CatalogList[] = [];
const RECENT_LISTS = 2;
// A frozen array cannot change, so it is its own key: a caller that keeps one list
// object per content (the bridge's assembly memo does) finds its names again in O(1),
// however many other lists came in between, for as long as it holds the array.
const frozenLists = new WeakMap<readonly ToolDefinition[], CatalogList>();

function sameTools(a: readonly ToolDefinition[], b: readonly ToolDefinition[]): boolean {
  // One array is the same list without a pass (reading a frozen array's elements is
  // several times slower than a plain one's in V8, so a pass over one is not free).
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

// The next list of a session is likely patched from this one: keep it at hand.
function remember(entry: CatalogList): void {
  if (recentLists[0] === entry) return;
  const at = recentLists.indexOf(entry);
  if (at >= 0) recentLists.splice(at, 1);
  recentLists.unshift(entry);
  if (recentLists.length > RECENT_LISTS) recentLists.pop();
}

function listOf(tools: readonly ToolDefinition[]): CatalogList {
  const frozen = Object.isFrozen(tools);
  if (frozen) {
    const known = frozenLists.get(tools);
    if (known !== undefined) {
      remember(known);
      return known;
    }
  }
  for (const recent of recentLists) if (sameTools(recent.list, tools)) return recent;
  const list = frozen ? tools : Object.freeze([...tools]);
  const byName = patchedNames(list) ?? NameVersion.of(list);
  const entry = { list, byName };
  frozenLists.set(list, entry);
  remember(entry);
  return entry;
}

/**
 * Tells the catalog that the frozen `list` is the frozen `old` with the tools at
 * `changed` replaced in place (the same length), so that its name map is patched from
 * `old`'s for those positions alone instead of being found by a pass over both lists.
 * A caller that has already compared the lists (the bridge's assembly memo) saves the
 * catalog its own pass; `createCatalog(list)` then finds the map in O(1).
 *
 * @param old - a frozen list a catalog was created over
 * @param list - the frozen new list, `old` with the tools at `changed` replaced
 * @param changed - every position where `list` differs from `old`, ascending
 * @returns false (and nothing done) when `old` has no remembered names or a list is not
 *   frozen or the lengths differ: `createCatalog(list)` then maps it its own way
 * @throws {@link ToolSearchError} `duplicate_tool_name` when an arriving tool's name is
 *   taken in `list`
 * @internal
 */
export function patchCatalogList(
  old: readonly ToolDefinition[],
  list: readonly ToolDefinition[],
  changed: readonly number[],
): boolean {
  if (!Object.isFrozen(old) || !Object.isFrozen(list) || old.length !== list.length) return false;
  if (frozenLists.has(list)) return true;
  const from = frozenLists.get(old);
  if (from === undefined) return false;
  const byName =
    changed.length === 0
      ? from.byName
      : from.byName.patch(
          changed.map((i) => old[i]!),
          changed.map((i) => list[i]!),
          list,
        );
  const entry = { list, byName };
  frozenLists.set(list, entry);
  remember(entry);
  return true;
}

/** A list differing from a recent one in more than this share of positions is mapped anew. */
const PATCH_SHARE = 1 / 16;

/**
 * The names of a list that differs from a recent one in a few positions (the same
 * length: tools replaced in place, as a server's changed tools are), patched from that
 * list's names; undefined when no recent list is that close.
 */
function patchedNames(list: readonly ToolDefinition[]): NameVersion | undefined {
  const limit = Math.floor(list.length * PATCH_SHARE);
  for (const recent of recentLists) {
    const old = recent.list;
    if (old.length !== list.length) continue;
    const changed: number[] = [];
    for (let i = 0; i < list.length && changed.length <= limit; i++) {
      if (old[i] !== list[i]) changed.push(i);
    }
    if (changed.length > limit) continue;
    return recent.byName.patch(
      changed.map((i) => old[i]!),
      changed.map((i) => list[i]!),
      list,
    );
  }
  return undefined;
}

function normalizeLimit(limit: unknown): number {
  if (typeof limit !== 'number' || !Number.isFinite(limit)) {
    return DEFAULT_TOOL_SEARCH_CONFIG.searchDefaultLimit;
  }
  return Math.max(1, Math.floor(limit));
}

/**
 * Creates a searchable catalog over a list of tools. Tool objects are treated as
 * immutable; rankers remember their indexes by tool objects, so building a catalog over an
 * unchanged list again is cheap. A frozen array is taken as the catalog's list as it
 * is (no copy), and a catalog over the same frozen array again reuses its name map.
 *
 * @example
 * ```ts
 * const catalog = createCatalog(deferredTools);
 * const [best] = await catalog.search('post a message to slack', { limit: 3 });
 * ```
 *
 * @param tools - the tools, names unique
 * @param options.ranker - the ranker @defaultValue `createBm25Ranker()`
 * @returns the catalog
 * @throws {@link ToolSearchError} `duplicate_tool_name` when two tools share a name
 */
export function createCatalog(
  tools: readonly ToolDefinition[],
  options: CatalogOptions = {},
): ToolCatalog {
  const ranker = options.ranker ?? defaultRanker();
  const { list, byName } = listOf(tools);

  let pending: Promise<RankerIndex> | undefined;
  const getIndex = (): Promise<RankerIndex> => {
    if (pending === undefined) {
      pending = (async () => ranker.index(list))();
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
