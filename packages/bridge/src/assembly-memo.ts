// The list-wide work of an assembly (the duplicate-name check, the classification, the
// token estimate of the deferrable tools), memoized for the last few lists by content:
// the tool objects in order, the pins and the token counter. Most turns assemble the
// list the turn before had; at 100,000 tools a set of every name and a memo lookup per
// tool cost about as much as everything else of the assembly together, while comparing
// the list with a remembered one is a pass of identity checks (one pass per assembly:
// its result, the positions that changed, becomes the deferrable list's change record,
// which the catalog, the ranker and the toolset counts reuse). Everything is held by an
// assembly cache the caller holds (one per session: the previous assembly hands on its own).

import type {
  CatalogCache,
  Ranker,
  TokenCounter,
  ToolCatalog,
  ToolDefinition,
  ToolList,
  ToolsetLoading,
} from '@tool-search/core';
import {
  classifyTools,
  createCatalogCache,
  createToolList,
  estimateSingleToolTokens,
  patchToolList,
  ToolSearchError,
} from '@tool-search/core';
import { differences, PATCH_SHARE, registerToolList, sameTools } from '@tool-search/core/internal';
import { ToolsetListings } from './toolset-listing.js';

/** What an assembly derives from its whole input list, before the activation decision. */
export interface ListWork {
  /** The tools the model always sees, in input order. */
  readonly visible: readonly ToolDefinition[];
  /**
   * The deferrable tools, in input order, as a list (frozen, with its change record when
   * it was patched from a remembered list), that a catalog takes as its own.
   */
  readonly deferrable: ToolList;
  /** The estimated tokens of {@link ListWork.deferrable}. */
  readonly deferredTokens: number;
}

/** Options of {@link listWorkOf}: a session's list and what its work depends on. */
export interface ListWorkOptions {
  /** The session's cache. */
  readonly cache: AssemblyCacheState;
  /** The session's tools. */
  readonly input: readonly ToolDefinition[];
  /** The pinned names (they decide the classification, with `loading`). */
  readonly pinned: readonly string[] | undefined;
  /** Loading by toolset. */
  readonly loading: ToolsetLoading | undefined;
  /** The token counter. */
  readonly counter: TokenCounter;
  /** The work itself; what it throws is thrown and nothing is remembered. */
  readonly compute: () => {
    visible: readonly ToolDefinition[];
    deferrable: ToolDefinition[];
    deferredTokens: number;
  };
  /** The error for a name that two tools share. */
  readonly duplicate: (name: string) => Error;
}

interface Entry extends ListWork {
  /** The input list as it was (the deferrable array itself when every tool is deferrable). */
  readonly input: readonly ToolDefinition[];
  readonly pins: string;
  readonly counter: TokenCounter;
}

/** How many lists are remembered: a few scopes, or a changed list beside the last. */
const RECENT_LISTS = 4;

/**
 * What the assemblies of one session share from turn to turn: the list-wide work of its
 * last lists, the toolset listings, and the {@link CatalogCache} of its catalogs (the
 * names of the last lists and the ranker's previous index, patched for the next list's
 * change). Create one per session with {@link createAssemblyCache}, or pass the previous
 * assembly: its cache is carried over.
 */
export interface AssemblyCache {
  /** The cache of this session's catalogs. */
  readonly catalogs: CatalogCache;
}

/** @internal */
export class AssemblyCacheState implements AssemblyCache {
  readonly catalogs: CatalogCache = createCatalogCache();
  /** The toolset counts and listings of the deferred lists. */
  readonly listings = new ToolsetListings();
  /** The ranker each catalog of this cache was created with (undefined: the default). */
  readonly rankerOf = new WeakMap<ToolCatalog, Ranker | undefined>();
  readonly recent: Entry[] = [];
}

/**
 * Creates the cache of one session's assemblies; pass it as `cache` to each
 * `assembleTools` of the session (or pass `previous`, which carries its cache over).
 *
 * @returns a new, empty cache
 * @throws nothing
 */
export function createAssemblyCache(): AssemblyCache {
  return new AssemblyCacheState();
}

// The cache of the callers that pass neither a cache nor a previous assembly (a runtime
// that keeps no session state, the bench): without it their every turn would redo the
// list-wide work and rebuild the ranker's index. Only such callers share it.
let processCache: AssemblyCacheState | undefined;

/**
 * The state of the given cache, else the process's.
 *
 * @throws {@link ToolSearchError} `invalid_argument` for an object `createAssemblyCache` did not make
 * @internal
 */
export function assemblyCacheState(cache: AssemblyCache | undefined): AssemblyCacheState {
  if (cache === undefined) {
    processCache ??= new AssemblyCacheState();
    return processCache;
  }
  if (!(cache instanceof AssemblyCacheState)) {
    throw new ToolSearchError(
      'invalid_argument',
      'assembleTools: options.cache is not an assembly cache. Make one with createAssemblyCache().',
    );
  }
  return cache;
}

/**
 * A key of a set of pinned names, the same whatever their order or repeats.
 *
 * @param pinned - the pinned names, or undefined
 * @returns the key ('' for none)
 * @throws nothing
 */
export function pinsKey(pinned: readonly string[] | undefined): string {
  if (pinned === undefined || pinned.length === 0) return '';
  return [...new Set(pinned)].sort().join('\u0000');
}

/**
 * A key of the pins and the toolsets' loading together: both decide the classification.
 *
 * @param pinned - the pinned names, or undefined
 * @param loading - loading by toolset, or undefined
 * @returns the key ('' for neither)
 * @throws nothing
 */
function classificationKey(
  pinned: readonly string[] | undefined,
  loading: ToolsetLoading | undefined,
): string {
  const pins = pinsKey(pinned);
  if (loading === undefined) return pins;
  const entries = Object.entries(loading)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([toolset, value]) => `${toolset}=${value}`);
  return `${pins}\u0001${entries.join('\u0000')}`;
}

/**
 * The list-wide work of an assembly over `input`: remembered when the same tool objects
 * came in the same order with the same pins and counter, patched from a remembered list
 * when only a few tools were replaced in place, else computed (and remembered unless it
 * throws). Tool objects are treated as immutable, as everywhere in tool search.
 *
 * One pass over the input finds both: it is compared with the first remembered list that
 * can be patched (the session's last list, usually), and the positions where they differ
 * are the whole change; the other remembered lists are only checked for being the same
 * list, which stops at their first difference. The change is recorded in the deferrable
 * list (for the catalog's name map, the ranker and the toolset counts), so nothing
 * compares the lists again.
 *
 * @param options - the list and what its work depends on (see {@link ListWorkOptions})
 * @returns the work
 * @throws what `compute` throws, or `duplicate`'s error
 */
export function listWorkOf(options: ListWorkOptions): ListWork {
  const { cache, input, pinned, loading, counter, compute } = options;
  // The pins and the toolsets' loading together decide the classification.
  const pins = classificationKey(pinned, loading);
  const recent = cache.recent;
  const limit = Math.floor(input.length * PATCH_SHARE);
  let closest: Entry | undefined;
  let changed: number[] | undefined;
  for (let index = 0; index < recent.length; index += 1) {
    const entry = recent[index]!;
    if (entry.counter !== counter || entry.pins !== pins) continue;
    if (entry.input.length !== input.length) continue;
    let same: boolean;
    // Only a list of deferrable tools alone is patched (a visible one changes the shape).
    if (closest === undefined && entry.input === entry.deferrable.tools) {
      const found = differences(entry.input, input, limit);
      if (found !== undefined && found.length > 0) {
        closest = entry;
        changed = found;
      }
      same = found !== undefined && found.length === 0;
    } else {
      same = sameTools(entry.input, input);
    }
    if (!same) continue;
    if (index > 0) {
      recent.splice(index, 1);
      recent.unshift(entry);
    }
    return entry;
  }
  const work =
    (closest === undefined || changed === undefined
      ? undefined
      : patchedWork(closest, changed, options)) ?? computed(compute);
  const deferrable = work.deferrable;
  const entry: Entry = {
    visible: work.visible,
    deferrable,
    deferredTokens: work.deferredTokens,
    // One array for both when nothing stays visible (the usual catalog of a gateway).
    input: deferrable.tools.length === input.length ? deferrable.tools : [...input],
    pins,
    counter,
  };
  recent.unshift(entry);
  if (recent.length > RECENT_LISTS) recent.pop();
  return entry;
}

function computed(compute: ListWorkOptions['compute']): ListWork {
  const work = compute();
  return { ...work, deferrable: createToolList(work.deferrable) };
}

/**
 * The work of a list that differs from a remembered one (every tool deferrable, the same
 * length, pins and counter) at the positions `changed`, from that one's work: the
 * replaced tools are classified and estimated, the catalog's name map of the remembered
 * list is patched for them (see `registerToolList`), and the change is recorded in the
 * new list. Undefined when a replacement would stay visible.
 */
function patchedWork(
  entry: Entry,
  changed: readonly number[],
  options: ListWorkOptions,
): ListWork | undefined {
  const { cache, input, pinned, loading, counter, duplicate } = options;
  const old = entry.input;
  const arrived = changed.map((index) => input[index]!);
  // A bridge tool or a tool that stays visible changes the shape: the whole work again.
  const { deferrable } = classifyTools(arrived, {
    ...(pinned === undefined ? {} : { pinned }),
    ...(loading === undefined ? {} : { loading }),
  });
  if (deferrable.length !== arrived.length) return undefined;
  let tokens = entry.deferredTokens;
  for (const index of changed) {
    tokens += estimateSingleToolTokens(input[index]!, counter);
    tokens -= estimateSingleToolTokens(old[index]!, counter);
  }
  // A counter of fractions would sum in another order than a fresh estimate.
  if (!Number.isSafeInteger(tokens) || !Number.isSafeInteger(entry.deferredTokens)) {
    return undefined;
  }
  const list = patchToolList(entry.deferrable, Object.freeze([...input]), changed);
  try {
    // This list's names, patched from the last list's for the change alone (or, when the
    // cache no longer holds that one, mapped anew): two tools of one name fail here.
    registerToolList(cache.catalogs, list);
  } catch (error) {
    if (ToolSearchError.isInstance(error) && error.code === 'duplicate_tool_name') {
      throw duplicate(String(error.data?.['tool']));
    }
    throw error;
  }
  return { visible: entry.visible, deferrable: list, deferredTokens: tokens };
}
