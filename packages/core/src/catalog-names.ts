// The name maps of catalogs, versioned: a catalog over a list that differs from a recent
// one in a few positions shares that list's map instead of building its own. At 100,000
// tools a map of every name costs more than the rest of an assembly where 0.1% changed,
// so a new list costs its changes only. One `Map` holds the names of one version at a
// time (the root); every other version keeps the edits that lead from the version it
// points to, and a lookup in it first moves the root there ("rerooting", as in Baker's
// persistent arrays), undoing and redoing only the edits in between. The links between
// versions are weak: a catalog held for long (an old assembly) does not keep the edits of
// every version after it alive; when its way to the root is gone, it maps its own list
// again on its next lookup.

import { ToolSearchError } from './errors.js';
import type { ToolDefinition } from './types.js';

/** One edit: the name's tool in this version (undefined: absent). */
interface Edit {
  readonly name: string;
  readonly tool: ToolDefinition | undefined;
}

interface Table {
  readonly map: Map<string, ToolDefinition>;
  root: NameVersion;
}

function newTable(version: NameVersion, tools: readonly ToolDefinition[]): Table {
  const map = new Map<string, ToolDefinition>();
  for (const tool of tools) {
    const size = map.size;
    map.set(tool.name, tool);
    if (map.size === size) throw duplicate(tool.name);
  }
  return { map, root: version };
}

/**
 * The names of one tool list: a version of a map shared with the lists it was patched
 * from or into.
 *
 * @internal
 */
export class NameVersion {
  /** Toward the root: this version is `next` with `edits` applied (null at the root). */
  private next: WeakRef<NameVersion> | null = null;
  private edits: Edit[] = [];
  private table: Table;

  /** @param tools - the list this version maps (mapped again if its way to the root is gone) */
  private constructor(
    private readonly tools: readonly ToolDefinition[],
    table?: Table,
  ) {
    this.table = table ?? newTable(this, tools);
  }

  /**
   * The names of a list, in a new map.
   *
   * @throws {@link ToolSearchError} `duplicate_tool_name` when two tools share a name
   */
  static of(tools: readonly ToolDefinition[]): NameVersion {
    return new NameVersion(tools);
  }

  /** The tool of a name in this version. */
  get(name: string): ToolDefinition | undefined {
    this.reroot();
    return this.table.map.get(name);
  }

  /** Whether this version has a tool of that name. */
  has(name: string): boolean {
    this.reroot();
    return this.table.map.has(name);
  }

  /**
   * A new version: this one without `removed` and with `added` (tools, not names: a tool
   * removed and added back under its own name is kept). This version stays readable.
   *
   * @param list - the list the new version maps (this one's with the edits)
   * @throws {@link ToolSearchError} `duplicate_tool_name` when an added tool's name is
   *   taken in the result; this version is then unchanged
   */
  patch(
    removed: readonly ToolDefinition[],
    added: readonly ToolDefinition[],
    list: readonly ToolDefinition[],
  ): NameVersion {
    this.reroot();
    const map = this.table.map;
    // What undoes the patch: the edits that lead from the new version back to this one.
    const undo: Edit[] = [];
    const set = (name: string, tool: ToolDefinition | undefined) => {
      undo.push({ name, tool: map.get(name) });
      if (tool === undefined) map.delete(name);
      else map.set(name, tool);
    };
    for (const tool of removed) if (map.get(tool.name) === tool) set(tool.name, undefined);
    for (const tool of added) {
      if (map.has(tool.name)) {
        for (let i = undo.length - 1; i >= 0; i--) {
          const edit = undo[i]!;
          if (edit.tool === undefined) map.delete(edit.name);
          else map.set(edit.name, edit.tool);
        }
        throw duplicate(tool.name);
      }
      set(tool.name, tool);
    }
    const version = new NameVersion(list, this.table);
    this.next = new WeakRef(version);
    this.edits = undo;
    this.table.root = version;
    return version;
  }

  /** Moves the table's root here, undoing and redoing the edits in between. */
  private reroot(): void {
    if (this.table.root === this) return;
    // The path to the root, then the edits applied from the root's end back to here.
    const path: NameVersion[] = [this];
    for (let link = this.next; link !== null; ) {
      const version = link.deref();
      if (version === undefined) break;
      path.push(version);
      link = version.next;
    }
    if (path[path.length - 1] !== this.table.root) {
      // A version on the way was collected: this one maps its own list again.
      this.table = newTable(this, this.tools);
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
        back.push({ name: edit.name, tool: map.get(edit.name) });
        if (edit.tool === undefined) map.delete(edit.name);
        else map.set(edit.name, edit.tool);
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

function duplicate(name: string): ToolSearchError {
  return new ToolSearchError(
    'duplicate_tool_name',
    `Tool '${name}' appears more than once in the catalog. Give each tool a unique name (e.g. prefix it with its server).`,
    { data: { tool: name } },
  );
}
