// The toolset counts of deferred lists, versioned as the catalog's name maps are (see
// `catalog-names.ts` in core): a list patched from another in a few positions shares its
// counts table instead of copying it. One `Map` holds the counts of one version at a time
// (the root); every other version keeps the edits that lead from the version it points
// to, and reading it first moves the root there, undoing and redoing only the edits in
// between. So patching the counts costs the change, not the number of toolsets (about
// 4,000 in the 100,000-tool bench catalog, whose copy was most of the patch). The links
// are weak: a version whose way to the root is gone counts its own list again.

/** One edit: a toolset's count in the version it leads to (undefined: absent). */
interface Edit {
  readonly name: string;
  readonly count: number | undefined;
}

interface Table {
  readonly map: Map<string, number>;
  root: CountVersion;
}

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
  /** Toward the root: this version is `next` with `edits` applied (null at the root). */
  private next: WeakRef<CountVersion> | null = null;
  private edits: Edit[] = [];
  private table: Table;
  readonly size: number;

  /** @param recount - this version's counts from its own list, when its way to the root is gone */
  private constructor(
    private readonly recount: () => Map<string, number>,
    table?: Table,
  ) {
    this.table = table ?? { map: recount(), root: this };
    this.size = this.table.map.size;
  }

  /**
   * The counts of a list, in a new table.
   *
   * @param recount - counts the list (called now, and again if this version is cut off)
   * @returns the version
   * @throws what `recount` throws
   */
  static of(recount: () => Map<string, number>): CountVersion {
    return new CountVersion(recount);
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
    this.reroot();
    const map = this.table.map;
    // What undoes the patch: the edits that lead from the new version back to this one.
    const undo: Edit[] = [];
    const before = new Map<string, number | undefined>();
    const set = (name: string, count: number) => {
      const old = map.get(name);
      if (!before.has(name)) before.set(name, old);
      undo.push({ name, count: old });
      if (count === 0) map.delete(name);
      else map.set(name, count);
    };
    for (const name of removed) {
      const count = map.get(name);
      if (count !== undefined) set(name, count - 1);
    }
    for (const name of added) set(name, (map.get(name) ?? 0) + 1);
    const appeared: string[] = [];
    const vanished: string[] = [];
    for (const [name, old] of before) {
      const now = map.has(name);
      if (old === undefined && now) appeared.push(name);
      else if (old !== undefined && !now) vanished.push(name);
    }
    const version = new CountVersion(recount, this.table);
    this.next = new WeakRef(version);
    this.edits = undo;
    this.table.root = version;
    return { version, appeared, vanished };
  }

  /** A toolset's tool count in this version (undefined: no tool). */
  get(name: string): number | undefined {
    this.reroot();
    return this.table.map.get(name);
  }

  /** Whether this version has a tool of that toolset. */
  has(name: string): boolean {
    this.reroot();
    return this.table.map.has(name);
  }

  /** This version's counts, as a copy (the shared table may move to another version meanwhile). */
  entries(): MapIterator<[string, number]> {
    return this.copy().entries();
  }

  /** This version's toolsets, as a copy. */
  keys(): MapIterator<string> {
    return this.copy().keys();
  }

  /** This version's counts alone, as a copy. */
  values(): MapIterator<number> {
    return this.copy().values();
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
    for (const [key, value] of this.copy()) callback.call(thisArg, value, key, this);
  }

  private copy(): Map<string, number> {
    this.reroot();
    return new Map(this.table.map);
  }

  /** Moves the table's root here, undoing and redoing the edits in between. */
  private reroot(): void {
    if (this.table.root === this) return;
    const path: CountVersion[] = [this];
    for (let link = this.next; link !== null; ) {
      const version = link.deref();
      if (version === undefined) break;
      path.push(version);
      link = version.next;
    }
    if (path[path.length - 1] !== this.table.root) {
      // A version on the way was collected: this one counts its own list again.
      this.table = { map: this.recount(), root: this };
      this.next = null;
      this.edits = [];
      return;
    }
    const map = this.table.map;
    for (let i = path.length - 2; i >= 0; i--) {
      const version = path[i]!;
      const toward = path[i + 1]!;
      const back: Edit[] = [];
      for (let e = version.edits.length - 1; e >= 0; e--) {
        const edit = version.edits[e]!;
        back.push({ name: edit.name, count: map.get(edit.name) });
        if (edit.count === undefined) map.delete(edit.name);
        else map.set(edit.name, edit.count);
      }
      // The former step now points the other way (its edits, too, undone last first).
      toward.next = new WeakRef(version);
      toward.edits = back;
      version.next = null;
      version.edits = [];
    }
    this.table.root = this;
  }
}
