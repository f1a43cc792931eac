// How a frozen list the bridge made came about: the remembered list it was patched from
// and the positions where the two differ. The bridge's assembly memo finds the changes in
// its one pass over the input; the toolset counts, the catalog and the ranker's patch of
// an index reuse them instead of comparing the lists again. The list it came from is held
// weakly: a chain of lists, each holding the one before, would keep every list of a long
// session alive.

import type { ToolDefinition } from './types.js';

/** A list's change from the list it was patched from. */
export interface ListChange {
  /** The list it was patched from (same length), while anything else holds it. */
  readonly from: WeakRef<readonly ToolDefinition[]>;
  /** Every position where the two lists differ, ascending. */
  readonly changed: readonly number[];
}

const recorded = new WeakMap<readonly ToolDefinition[], ListChange>();

/**
 * Records that the frozen `list` is `from` with the tools at `changed` replaced.
 *
 * @param list - the new frozen list
 * @param from - the frozen list it was patched from
 * @param changed - every position where they differ, ascending
 * @returns nothing
 * @throws nothing
 * @internal
 */
export function recordListChange(
  list: readonly ToolDefinition[],
  from: readonly ToolDefinition[],
  changed: readonly number[],
): void {
  recorded.set(list, { from: new WeakRef(from), changed });
}

/**
 * The recorded change of a list, if the bridge patched it from another.
 *
 * @param list - a list
 * @returns its change, or undefined
 * @throws nothing
 * @internal
 */
export function listChangeOf(list: readonly ToolDefinition[]): ListChange | undefined {
  return recorded.get(list);
}

/** How many recorded changes back the lists of {@link changedPositions} are followed. */
const MAX_STEPS = 4;

/** The recorded lists `list` came from, nearest first, each with the changes from it to `list`. */
function ancestors(list: readonly ToolDefinition[]): {
  lists: (readonly ToolDefinition[])[];
  changes: (readonly number[])[];
} {
  const lists = [list];
  const changes: (readonly number[])[] = [];
  let current = list;
  for (let step = 0; step < MAX_STEPS; step++) {
    const change = listChangeOf(current);
    const from = change?.from.deref();
    if (change === undefined || from === undefined) break;
    changes.push(change.changed);
    lists.push(from);
    current = from;
  }
  return { lists, changes };
}

/**
 * Every position where two lists of the same length may differ, from the changes the
 * bridge recorded: both are followed back (a few steps, while the lists they came from
 * are alive) to a list they share, and the positions changed on either way are the only
 * ones where they can differ. A position in the answer may hold the same tool in both.
 *
 * @param a - a list
 * @param b - another list of the same length
 * @returns the positions, ascending; undefined when no shared list is found (or the lengths differ)
 * @throws nothing
 * @internal
 */
export function changedPositions(
  a: readonly ToolDefinition[],
  b: readonly ToolDefinition[],
): number[] | undefined {
  if (a.length !== b.length) return undefined;
  if (a === b) return [];
  const up = ancestors(a);
  const other = ancestors(b);
  for (let j = 0; j < other.lists.length; j++) {
    const i = up.lists.indexOf(other.lists[j]!);
    if (i < 0) continue;
    const parts = [...up.changes.slice(0, i), ...other.changes.slice(0, j)];
    if (parts.length === 1) return [...parts[0]!];
    const merged = parts.flat().sort((x, y) => x - y);
    let kept = 0;
    for (let k = 0; k < merged.length; k++) {
      if (k === 0 || merged[k] !== merged[k - 1]) merged[kept++] = merged[k]!;
    }
    merged.length = kept;
    return merged;
  }
  return undefined;
}
