// An explicit tool list: frozen tools, an identity, and (when it was patched from
// another list) the record of that change. The caller that made the list hands it on,
// so the catalog, a ranker's patch of its index and the bridge's toolset counts reuse
// the change instead of comparing the lists again; nothing is remembered on the side.
// The change names the list it came from by id, not by reference: a chain of lists,
// each holding the one before, would keep every list of a long session alive.

import type { ToolDefinition } from './types.js';

/** How a list differs from the list it was patched from (the same length). */
export interface ToolListChange {
  /** The {@link ToolList.id} of the list it was patched from. */
  readonly from: number;
  /** Every position where the two lists differ, ascending. */
  readonly changed: readonly number[];
}

/** A frozen list of tools with an identity, and its change when it was patched from another. */
export interface ToolList {
  /** The list's identity, unique in the process. */
  readonly id: number;
  /** The tools, frozen, names unique. */
  readonly tools: readonly ToolDefinition[];
  /** The change from the list it was patched from, when it was. */
  readonly change?: ToolListChange;
}

let nextId = 1;

/**
 * A tool list over `tools`: the array itself when frozen, else a frozen copy.
 *
 * @param tools - the tools
 * @returns the list, with a new id and no change
 * @throws nothing
 */
export function createToolList(tools: readonly ToolDefinition[]): ToolList {
  return { id: nextId++, tools: Object.isFrozen(tools) ? tools : Object.freeze([...tools]) };
}

/**
 * The list `tools`, recorded as `from` with the tools at `changed` replaced in place.
 *
 * @param from - the list it was patched from
 * @param tools - the new tools, the same length as `from.tools`
 * @param changed - every position where they differ, ascending
 * @returns the list, with a new id and its change
 * @throws nothing
 */
export function patchToolList(
  from: ToolList,
  tools: readonly ToolDefinition[],
  changed: readonly number[],
): ToolList {
  const list = createToolList(tools);
  return { ...list, change: { from: from.id, changed } };
}

/**
 * Whether a value is a {@link ToolList} (rather than a plain array of tools).
 *
 * @param value - a list or an array
 * @returns true for a tool list
 * @throws nothing
 */
export function isToolList(value: readonly ToolDefinition[] | ToolList): value is ToolList {
  return !Array.isArray(value);
}

/**
 * A list differing from a remembered one in more than this share of positions is worked
 * anew rather than patched (by the catalog's name maps, the bridge's memo and counts).
 *
 * @internal
 */
export const PATCH_SHARE = 1 / 16;

/**
 * Whether two lists hold the same tool objects in the same order.
 *
 * @param a - a list
 * @param b - another list
 * @returns true when they do
 * @throws nothing
 * @internal
 */
export function sameTools(a: readonly ToolDefinition[], b: readonly ToolDefinition[]): boolean {
  // One array is the same list without a pass (reading a frozen array's elements is
  // slower than a plain one's in V8, see the benchmarks guide, so a pass over one is not free).
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The positions where `b` differs from `a` (the same length), or undefined past `limit`
 * of them.
 *
 * @param a - a list
 * @param b - a list of the same length
 * @param limit - the most positions wanted
 * @returns the positions, ascending, or undefined
 * @throws nothing
 * @internal
 */
export function differences(
  a: readonly ToolDefinition[],
  b: readonly ToolDefinition[],
  limit: number,
): number[] | undefined {
  const changed: number[] = [];
  for (let i = 0; i < b.length; i++) {
    if (a[i] === b[i]) continue;
    if (changed.length === limit) return undefined;
    changed.push(i);
  }
  return changed;
}
