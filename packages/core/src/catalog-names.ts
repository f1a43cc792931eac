// The name maps of catalogs, versioned: a catalog over a list that differs from a recent
// one in a few positions shares that list's map instead of building its own. At 100,000
// tools a map of every name costs more than the rest of an assembly where 0.1% changed,
// so a new list costs its changes only. One `Map` holds the names of one version at a
// time (the root); every other version keeps the edits that lead from the version it
// points to, and a lookup in it first moves the root there ("rerooting", as in Baker's
// persistent arrays), undoing and redoing only the edits in between.

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

/**
 * The names of one tool list: a version of a map shared with the lists it was patched
 * from or into.
 *
 * @internal
 */
export class NameVersion {
  /** Toward the root: this version is `next` with `edits` applied (null at the root). */
  private next: NameVersion | null = null;
  private edits: Edit[] = [];

  private constructor(private readonly table: Table) {}

  /**
   * The names of a list, in a new map.
   *
   * @throws {@link ToolSearchError} `duplicate_tool_name` when two tools share a name
   */
  static of(tools: readonly ToolDefinition[]): NameVersion {
    const map = new Map<string, ToolDefinition>();
    for (const tool of tools) {
      const size = map.size;
      map.set(tool.name, tool);
      if (map.size === size) throw duplicate(tool.name);
    }
    const table: Table = { map, root: undefined as unknown as NameVersion };
    const version = new NameVersion(table);
    table.root = version;
    return version;
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
   * @throws {@link ToolSearchError} `duplicate_tool_name` when an added tool's name is
   *   taken in the result; this version is then unchanged
   */
  patch(removed: readonly ToolDefinition[], added: readonly ToolDefinition[]): NameVersion {
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
    const version = new NameVersion(this.table);
    this.next = version;
    this.edits = undo;
    this.table.root = version;
    return version;
  }

  /** Moves the table's root here, undoing and redoing the edits in between. */
  private reroot(): void {
    if (this.table.root === this) return;
    // The path to the root, then the edits applied from the root's end back to here.
    const path: NameVersion[] = [];
    for (let version: NameVersion | null = this; version !== null; version = version.next) {
      path.push(version);
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
      toward.next = version;
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
