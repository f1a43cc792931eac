// The tool count per toolset of a deferred list, for the `tool_search` description.
// Counting walks every tool (a map lookup each): at 100,000 tools it was most of an
// assembly over an unchanged list. A frozen list (the assembly memo's) keeps its counts;
// a list the memo patched from a counted one patches those counts at the positions the
// memo found changed (no pass over the list), and another frozen list that differs from
// the last one counted in a few positions patches that one's counts after a pass. The
// counts are versions of one shared table (see count-versions.ts), so a patch costs the
// change, not the number of toolsets. Keyed by list identity only, never by session; the
// last list is held weakly, so nothing here outlives the lists themselves.

import type { ToolDefinition } from '@tool-search/core';
import { listChangeOf } from '@tool-search/core/internal';
import { CountVersion } from './count-versions.js';
import { sourceName } from './search-match.js';

/** A list's counts, and its toolset names sorted (what the listing shows in order). */
export interface ToolsetCounts {
  readonly counts: ReadonlyMap<string, number>;
  readonly names: readonly string[];
}

interface Counted extends ToolsetCounts {
  readonly counts: CountVersion;
}

/** A list differing from the last in more than this share of positions is counted anew. */
const PATCH_SHARE = 1 / 16;

const memo = new WeakMap<readonly ToolDefinition[], Counted>();
let last: WeakRef<readonly ToolDefinition[]> | undefined;

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
  const limit = Math.floor(tools.length * PATCH_SHARE);
  const changed: number[] = [];
  for (let index = 0; index < tools.length; index += 1) {
    if (old[index] === tools[index]) continue;
    if (changed.length === limit) return undefined;
    changed.push(index);
  }
  return patchedAt(old, before, tools, changed);
}

/** The counts of a list the bridge patched from a counted list, from its recorded change. */
function fromRecordedChange(tools: readonly ToolDefinition[]): Counted | undefined {
  const change = listChangeOf(tools);
  const old = change?.from.deref();
  const before = old === undefined ? undefined : memo.get(old);
  if (change === undefined || old === undefined || before === undefined) return undefined;
  return patchedAt(old, before, tools, change.changed);
}

/**
 * How many tools each toolset (else source) holds in `tools`, with the names sorted.
 * Remembered for a frozen list (treated as immutable, as every list of tool search).
 *
 * @param tools - the deferred tools
 * @returns the counts and the sorted names; do not change them
 * @throws nothing
 * @internal
 */
export function toolsetCounts(tools: readonly ToolDefinition[]): ToolsetCounts {
  if (!Object.isFrozen(tools)) return countAll(tools);
  const known = memo.get(tools);
  if (known !== undefined) return known;
  let result = fromRecordedChange(tools);
  if (result === undefined) {
    const old = last?.deref();
    const before = old === undefined ? undefined : memo.get(old);
    result =
      (old !== undefined && before !== undefined && old.length === tools.length
        ? patched(old, before, tools)
        : undefined) ?? countAll(tools);
  }
  memo.set(tools, result);
  last = new WeakRef(tools);
  return result;
}
