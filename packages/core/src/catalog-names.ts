// The name maps of catalogs, as versions of one map (see versioned-map.ts): a catalog
// over a list that differs from a recent one in a few positions shares that list's map
// instead of building its own, so a new list costs its changes only.

import { ToolSearchError } from './errors.js';
import type { ToolDefinition } from './types.js';
import { VersionedMap } from './versioned-map.js';

function mapOf(tools: readonly ToolDefinition[]): Map<string, ToolDefinition> {
  const map = new Map<string, ToolDefinition>();
  for (const tool of tools) {
    const size = map.size;
    map.set(tool.name, tool);
    if (map.size === size) throw duplicate(tool.name);
  }
  return map;
}

// A closure of its own: one made inside `patch` would share that function's context,
// which holds the previous version too.
function remapper(tools: readonly ToolDefinition[]): () => Map<string, ToolDefinition> {
  return () => mapOf(tools);
}

/**
 * The names of one tool list: a version of a map shared with the lists it was patched
 * from or into.
 *
 * @internal
 */
export class NameVersion {
  private constructor(private readonly version: VersionedMap<string, ToolDefinition>) {}

  /**
   * The names of a list, in a new map.
   *
   * @throws {@link ToolSearchError} `duplicate_tool_name` when two tools share a name
   */
  static of(tools: readonly ToolDefinition[]): NameVersion {
    return new NameVersion(VersionedMap.of(remapper(tools)));
  }

  /** The tool of a name in this version. */
  get(name: string): ToolDefinition | undefined {
    return this.version.get(name);
  }

  /** Whether this version has a tool of that name. */
  has(name: string): boolean {
    return this.version.has(name);
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
    const version = this.version.patch((set, map) => {
      for (const tool of removed) if (map.get(tool.name) === tool) set(tool.name, undefined);
      for (const tool of added) {
        if (map.has(tool.name)) throw duplicate(tool.name);
        set(tool.name, tool);
      }
    }, remapper(list));
    return new NameVersion(version);
  }
}

function duplicate(name: string): ToolSearchError {
  return new ToolSearchError(
    'duplicate_tool_name',
    `Tool '${name}' appears more than once in the catalog. Give each tool a unique name (e.g. prefix it with its server).`,
    { data: { tool: name } },
  );
}
