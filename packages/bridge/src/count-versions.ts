// The toolset counts of deferred lists, versioned as the catalog's name maps are (core's
// `VersionedMap`): a list patched from another in a few positions shares its counts
// table instead of copying it, so patching the counts costs the change, not the number of
// toolsets (thousands in the largest bench catalog, where copying the table was most of
// the patch; see the benchmarks guide). A version whose way to the shared table is gone
// counts its own list again.

import { VersionedMap } from '@tool-search/core/internal';

/** What a patch did to the set of toolsets. */
export interface CountPatch {
  /** The counts after the patch. */
  readonly version: CountVersion;
  /** Toolsets that had no tool before and have some now. */
  readonly appeared: readonly string[];
  /** Toolsets that had tools before and have none now. */
  readonly vanished: readonly string[];
}

/**
 * The tool count per toolset of one list: a version of a table shared with the lists it
 * was patched from or into. Read it as a `ReadonlyMap`.
 *
 * @internal
 */
export class CountVersion implements ReadonlyMap<string, number> {
  /** The number of toolsets of this version. */
  readonly size: number;

  private constructor(private readonly version: VersionedMap<string, number>) {
    this.size = version.size;
  }

  /**
   * The counts of a list, in a new table.
   *
   * @param recount - counts the list (called now, and again if this version is cut off)
   * @returns the version
   * @throws what `recount` throws
   */
  static of(recount: () => Map<string, number>): CountVersion {
    return new CountVersion(VersionedMap.of(recount));
  }

  /**
   * A new version: one tool fewer for each name of `removed` and one more for each of
   * `added`. This version stays readable.
   *
   * @param removed - the toolsets of the tools that left (a name once per tool)
   * @param added - the toolsets of the tools that arrived
   * @param recount - the new version's counts from its own list
   * @returns the new version and the toolsets that appeared or vanished
   * @throws nothing (a `removed` name without tools is ignored)
   */
  patch(
    removed: readonly string[],
    added: readonly string[],
    recount: () => Map<string, number>,
  ): CountPatch {
    const before = new Map<string, number | undefined>();
    const appeared: string[] = [];
    const vanished: string[] = [];
    const version = this.version.patch((set, map) => {
      const change = (name: string, count: number) => {
        if (!before.has(name)) before.set(name, map.get(name));
        set(name, count === 0 ? undefined : count);
      };
      for (const name of removed) {
        const count = map.get(name);
        if (count !== undefined) change(name, count - 1);
      }
      for (const name of added) change(name, (map.get(name) ?? 0) + 1);
      for (const [name, old] of before) {
        const now = map.has(name);
        if (old === undefined && now) appeared.push(name);
        else if (old !== undefined && !now) vanished.push(name);
      }
    }, recount);
    return { version: new CountVersion(version), appeared, vanished };
  }

  /** A toolset's tool count in this version (undefined: no tool). */
  get(name: string): number | undefined {
    return this.version.get(name);
  }

  /** Whether this version has a tool of that toolset. */
  has(name: string): boolean {
    return this.version.has(name);
  }

  /** This version's counts, as a copy (the shared table may move to another version meanwhile). */
  entries(): MapIterator<[string, number]> {
    return this.version.copy().entries();
  }

  /** This version's toolsets, as a copy. */
  keys(): MapIterator<string> {
    return this.version.copy().keys();
  }

  /** This version's counts alone, as a copy. */
  values(): MapIterator<number> {
    return this.version.copy().values();
  }

  /** The same as {@link CountVersion.entries}. */
  [Symbol.iterator](): MapIterator<[string, number]> {
    return this.entries();
  }

  /** Calls `callback` for each toolset of a copy of this version's counts. */
  forEach(
    callback: (value: number, key: string, map: ReadonlyMap<string, number>) => void,
    thisArg?: unknown,
  ): void {
    for (const [key, value] of this.version.copy()) callback.call(thisArg, value, key, this);
  }
}
