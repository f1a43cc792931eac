// The tool count per toolset of a deferred list, for the `tool_search` description.
// Counting walks every tool (a map lookup each): at 100,000 tools it was most of an
// assembly over an unchanged list. A memo of the caller's assembly cache keeps a
// list's counts; a list patched from the last one counted patches those counts at the
// positions of its change record (no pass over the list), and another list that differs
// from the last one counted in a few positions patches that one's counts after a pass.
// The counts are versions of one shared table (see core's versioned map), so a patch
// costs the change, not the number of toolsets.

import type { ToolDefinition, ToolList } from '@tool-search/core';
import { differences, PATCH_SHARE } from '@tool-search/core/internal';
import { CountVersion } from './count-versions.js';
import { sourceName } from './source-name.js';

/** A list's counts, and its toolset names sorted (what the listing shows in order). */
export interface ToolsetCounts {
  readonly counts: ReadonlyMap<string, number>;
  readonly names: readonly string[];
}

interface Counted extends ToolsetCounts {
  readonly counts: CountVersion;
}

function countMap(tools: readonly ToolDefinition[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const tool of tools) {
    const name = sourceName(tool);
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts;
}

// A closure of its own: one made inside `patchedAt` would share that function's context,
// which holds the previous list too, and each list's counts would keep every list before it.
function recounter(tools: readonly ToolDefinition[]): () => Map<string, number> {
  return () => countMap(tools);
}

function countAll(tools: readonly ToolDefinition[]): Counted {
  const counts = CountVersion.of(recounter(tools));
  return { counts, names: [...counts.keys()].sort() };
}

/** Where `name` is, or belongs, in the sorted `names`. */
function position(names: readonly string[], name: string): number {
  let low = 0;
  let high = names.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (names[middle]! < name) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The counts of `tools` from those of `old`, which differ at `changed` alone. */
function patchedAt(
  old: readonly ToolDefinition[],
  before: Counted,
  tools: readonly ToolDefinition[],
  changed: readonly number[],
): Counted {
  if (changed.length === 0) return before;
  const { version, appeared, vanished } = before.counts.patch(
    changed.map((index) => sourceName(old[index]!)),
    changed.map((index) => sourceName(tools[index]!)),
    recounter(tools),
  );
  // The same toolsets in the same order unless one appeared or vanished.
  if (appeared.length === 0 && vanished.length === 0)
    return { counts: version, names: before.names };
  const names = [...before.names];
  for (const name of vanished) names.splice(position(names, name), 1);
  for (const name of appeared) names.splice(position(names, name), 0, name);
  return { counts: version, names };
}

/** The counts of `tools` from those of `old` (same length), or undefined when too much changed. */
function patched(
  old: readonly ToolDefinition[],
  before: Counted,
  tools: readonly ToolDefinition[],
): Counted | undefined {
  const changed = differences(old, tools, Math.floor(tools.length * PATCH_SHARE));
  return changed === undefined ? undefined : patchedAt(old, before, tools, changed);
}

/**
 * How many tools each toolset (else source) holds in a list, with the names sorted.
 *
 * @param tools - the deferred tools
 * @returns the counts and the sorted names
 * @throws nothing
 * @internal
 */
export function countToolsets(tools: readonly ToolDefinition[]): ToolsetCounts {
  return countAll(tools);
}

/**
 * The toolset counts of the lists of one assembly cache: a list's counts are remembered,
 * and those of a list patched from the last one counted are patched from its change.
 *
 * @internal
 */
export class ToolsetCountsMemo {
  readonly #byTools = new WeakMap<readonly ToolDefinition[], Counted>();
  #last: { readonly list: ToolList; readonly counted: Counted } | undefined;

  /**
   * The counts of a list, with the names sorted; do not change them.
   *
   * @param list - the deferred tools
   * @returns the counts and the sorted names
   * @throws nothing
   */
  countsOf(list: ToolList): ToolsetCounts {
    const tools = list.tools;
    const known = this.#byTools.get(tools);
    if (known !== undefined) return known;
    const last = this.#last;
    let result: Counted | undefined;
    if (last !== undefined && last.list.tools.length === tools.length) {
      const change = list.change;
      result =
        change !== undefined && change.from === last.list.id
          ? patchedAt(last.list.tools, last.counted, tools, change.changed)
          : patched(last.list.tools, last.counted, tools);
    }
    result ??= countAll(tools);
    this.#byTools.set(tools, result);
    this.#last = { list, counted: result };
    return result;
  }
}
