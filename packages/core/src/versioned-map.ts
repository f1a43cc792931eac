// Versions of one map, for the memos of tool lists (the catalog's name maps, the bridge's
// toolset counts): a list patched from another in a few positions gets a version of the
// other's map instead of a copy. At 100,000 tools a map of every name costs more than the
// rest of an assembly where 0.1% changed, so a new version costs its changes only. One
// `Map` holds the entries of one version at a time (the root); every other version keeps
// the edits that lead from the version it points to, and reading it first moves the root
// there ("rerooting", as in Baker's persistent arrays), undoing and redoing only the edits
// in between. The links between versions are weak: a version held for long (an old
// assembly) does not keep the edits of every version after it alive; when its way to the
// root is gone, it builds its own map again on its next read.

/** One edit: the key's value in the version it leads to (undefined: absent). */
interface Edit<K, V> {
  readonly key: K;
  readonly value: V | undefined;
}

interface Table<K, V> {
  readonly map: Map<K, V>;
  root: VersionedMap<K, V>;
}

/**
 * Sets (or, with `undefined`, deletes) one key of the version being made.
 *
 * @internal
 */
export type VersionSetter<K, V> = (key: K, value: V | undefined) => void;

/**
 * One version of a map shared with the versions it was patched from or into.
 *
 * @internal
 */
export class VersionedMap<K, V> {
  /** Toward the root: this version is `next` with `edits` applied (null at the root). */
  private next: WeakRef<VersionedMap<K, V>> | null = null;
  private edits: Edit<K, V>[] = [];
  private table: Table<K, V>;

  /** @param rebuild - this version's entries from its own list, when its way to the root is gone */
  private constructor(
    private readonly rebuild: () => Map<K, V>,
    table?: Table<K, V>,
  ) {
    this.table = table ?? { map: rebuild(), root: this };
  }

  /**
   * A version in a new map.
   *
   * @param rebuild - builds the entries (called now, and again if this version is cut off)
   * @returns the version
   * @throws what `rebuild` throws
   */
  static of<K, V>(rebuild: () => Map<K, V>): VersionedMap<K, V> {
    return new VersionedMap(rebuild);
  }

  /** The value of a key in this version. */
  get(key: K): V | undefined {
    return this.map().get(key);
  }

  /** Whether this version has the key. */
  has(key: K): boolean {
    return this.map().has(key);
  }

  /** The number of entries of this version. */
  get size(): number {
    return this.map().size;
  }

  /** A copy of this version's entries (the shared map may move to another version). */
  copy(): Map<K, V> {
    return new Map(this.map());
  }

  /**
   * A new version: this one with the edits `apply` makes through `set`. This version
   * stays readable. When `apply` throws, its edits are undone and this version is as it was.
   *
   * @param apply - makes the edits; reads through `current` see them as they are made
   * @param rebuild - the new version's entries from its own list
   * @returns the new version
   * @throws what `apply` throws
   */
  patch(
    apply: (set: VersionSetter<K, V>, current: ReadonlyMap<K, V>) => void,
    rebuild: () => Map<K, V>,
  ): VersionedMap<K, V> {
    const map = this.map();
    // What undoes the patch: the edits that lead from the new version back to this one.
    const undo: Edit<K, V>[] = [];
    const set: VersionSetter<K, V> = (key, value) => {
      undo.push({ key, value: map.get(key) });
      if (value === undefined) map.delete(key);
      else map.set(key, value);
    };
    try {
      apply(set, map);
    } catch (error) {
      for (let i = undo.length - 1; i >= 0; i--) {
        const edit = undo[i]!;
        if (edit.value === undefined) map.delete(edit.key);
        else map.set(edit.key, edit.value);
      }
      throw error;
    }
    const version = new VersionedMap(rebuild, this.table);
    this.next = new WeakRef(version);
    this.edits = undo;
    this.table.root = version;
    return version;
  }

  /** The shared map, with the root moved here. */
  private map(): Map<K, V> {
    this.reroot();
    return this.table.map;
  }

  /** Moves the table's root here, undoing and redoing the edits in between. */
  private reroot(): void {
    if (this.table.root === this) return;
    // The path to the root, then the edits applied from the root's end back to here.
    const path: VersionedMap<K, V>[] = [this];
    for (let link = this.next; link !== null; ) {
      const version = link.deref();
      if (version === undefined) break;
      path.push(version);
      link = version.next;
    }
    if (path[path.length - 1] !== this.table.root) {
      // A version on the way was collected: this one builds its own map again.
      this.table = { map: this.rebuild(), root: this };
      this.next = null;
      this.edits = [];
      return;
    }
    const map = this.table.map;
    for (let i = path.length - 2; i >= 0; i--) {
      const version = path[i]!;
      const toward = path[i + 1]!;
      const back: Edit<K, V>[] = [];
      for (let e = version.edits.length - 1; e >= 0; e--) {
        const edit = version.edits[e]!;
        back.push({ key: edit.key, value: map.get(edit.key) });
        if (edit.value === undefined) map.delete(edit.key);
        else map.set(edit.key, edit.value);
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
