// How a frozen list the bridge made came about: the remembered list it was patched from
// and the positions where the two differ. The assembly memo finds the changes in its one
// pass over the input; the toolset counts (and the catalog, told directly) reuse them
// instead of comparing the lists again. The list it came from is held weakly: a chain of
// lists, each holding the one before, would keep every list of a long session alive.

import type { ToolDefinition } from '@tool-search/core';

/** A list's change from the list it was patched from. */
export interface ListChange {
  /** The list it was patched from (same length), while anything else holds it. */
  readonly from: WeakRef<readonly ToolDefinition[]>;
  /** Every position where the two lists differ, ascending. */
  readonly changed: readonly number[];
}

const changes = new WeakMap<readonly ToolDefinition[], ListChange>();

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
  changes.set(list, { from: new WeakRef(from), changed });
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
  return changes.get(list);
}
