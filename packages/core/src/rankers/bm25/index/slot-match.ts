// Matches a new tool list to the slots of the index it patches, by tool object.

import type { ToolDefinition } from '../../../types.js';
import type { FieldIndex } from './field-index.js';

/**
 * The slots of a list in a previous index, from {@link matchSlots}.
 *
 * @internal
 */
export interface SlotMatch {
  /** Per position of the list: its slot in the previous index, -1 when the tool arrives. */
  readonly slots: Int32Array;
  /**
   * The positions whose tool changed when every other tool kept its position in a list
   * of the same length (the usual edit: tools replaced in place); undefined otherwise.
   */
  readonly replaced: number[] | undefined;
  /** The slots of tools that had left and come back: their postings are still there. */
  readonly revived: number[];
}

/**
 * The slot of each tool of `tools` in the previous index (-1: it arrives), matching by
 * object: the same position first, then any other slot that held the same object,
 * alive (the tool moved) or left (it comes back, with the postings it had).
 *
 * @param changed - when known (the list's change record, from the ranker contract's
 *   `change`), every position where `tools` differs from `previous.tools` (the same length)
 *
 * @throws the `RangeError` of a typed array beyond the size limit
 * @internal
 */
export function matchSlots(
  previous: FieldIndex,
  tools: readonly ToolDefinition[],
  changed?: readonly number[],
): SlotMatch {
  const n = tools.length;
  const old = previous.tools;
  const same = Math.min(n, old.length);
  const missing: number[] = [];
  const revived: number[] = [];
  // The positions the list's change names are the only ones that can differ (at 100,000
  // tools, reading both whole lists would cost more than the rest of a small patch: see
  // the benchmarks guide).
  const known = changed !== undefined && n === old.length ? changed : undefined;
  let slots: Int32Array;
  let claimed: Uint8Array;
  if (known !== undefined) {
    for (const i of known) if (tools[i] !== old[i]) missing.push(i);
    slots = new Int32Array(n);
    slots.set(previous.order);
    if (missing.length === 0) return { slots, replaced: missing, revived };
    for (const i of missing) slots[i] = -1;
    // The alive slots are those of the previous list's positions: all kept but the missing.
    claimed = previous.alive.slice();
    for (const i of missing) claimed[previous.order[i]!] = 0;
  } else {
    slots = new Int32Array(n).fill(-1);
    for (let i = 0; i < same; i++) {
      if (tools[i] === old[i]) slots[i] = previous.order[i]!;
      else missing.push(i);
    }
    for (let i = same; i < n; i++) missing.push(i);
    if (missing.length === 0) {
      return { slots, replaced: n === old.length ? missing : undefined, revived };
    }
    claimed = new Uint8Array(previous.capacity);
    for (let i = 0; i < same; i++) if (slots[i]! >= 0) claimed[slots[i]!] = 1;
  }
  const { alive, capacity } = previous;
  // A tool that left an index of this family comes back to its slot; the others are
  // looked for among the previous list's tools (moved), in one pass.
  let wanted: Map<ToolDefinition, number[]> | undefined;
  for (const i of missing) {
    const tool = tools[i]!;
    const slot = previous.family.left.get(tool);
    if (slot !== undefined && slot < capacity && alive[slot] === 0 && claimed[slot] === 0) {
      slots[i] = slot;
      claimed[slot] = 1;
      revived.push(slot);
      continue;
    }
    wanted ??= new Map();
    const list = wanted.get(tool);
    if (list === undefined) wanted.set(tool, [i]);
    else list.push(i);
  }
  let moved = false;
  // Only the previous positions whose tool is not at the same position now can hold a
  // moved tool: every other slot is claimed. They are those missing below `same`, then
  // every position past it, visited in order as a scan of the whole list would.
  let next = 0;
  for (let p = 0; wanted !== undefined && p < old.length && wanted.size > 0; p++) {
    if (p < same) {
      if (next === missing.length || missing[next]! >= same) p = same;
      else p = missing[next++]!;
      if (p >= old.length) break;
    }
    const positions = wanted.get(old[p]!);
    if (positions === undefined) continue;
    const slot = previous.order[p]!;
    if (claimed[slot] === 1) continue;
    const i = positions.shift()!;
    if (positions.length === 0) wanted.delete(old[p]!);
    slots[i] = slot;
    claimed[slot] = 1;
    moved = true;
  }
  return { slots, replaced: !moved && n === old.length ? missing : undefined, revived };
}
