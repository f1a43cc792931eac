// The first step of a build: which index it patches (if any) and the slot of every tool
// of the new list, the arrivals' new slots included.

import { TOOL_FIELDS } from '../../../analyzer-fields.js';
import type { ToolDefinition } from '../../../types.js';
import type { Bm25Tuning } from '../tuning.js';
import type { FieldIndex } from './field-index.js';
import { compactIndex } from './index-compaction.js';
import { matchSlots } from './slot-match.js';

/** Past this share of arrivals, a fresh build costs less than a patch. */
const FRESH_SHARE = 0.5;

/**
 * The slots of a build's list.
 *
 * @internal
 */
export interface SlotPlan {
  /** The index patched (perhaps a compaction of the one given), or undefined for a fresh build. */
  readonly base: FieldIndex | undefined;
  readonly tools: readonly ToolDefinition[];
  /** Per position: its slot; the arrivals get new slots from `oldCapacity` on, in catalog order. */
  readonly slots: Int32Array;
  /**
   * The positions whose tool changed when every other tool kept its position in a list
   * of the same length (tools replaced in place): the steps visit these only, and copy
   * what is by position from the base. Undefined otherwise.
   */
  readonly replaced: readonly number[] | undefined;
  /** The base's slots whose tool had left and comes back, with its postings. */
  readonly revived: readonly number[];
  /** The tools that arrive, in catalog order. */
  readonly arrivals: readonly ToolDefinition[];
  /** The base's slots (0 for a fresh build): the arrivals' slots follow. */
  readonly oldCapacity: number;
  readonly capacity: number;
}

/** Whether indexes of this tuning can be patched (posting presence ignores the averages). */
function patchable(tuning: Bm25Tuning): boolean {
  return TOOL_FIELDS.every((field) => tuning.fields[field].b >= 0 && tuning.fields[field].b <= 1);
}

/**
 * Plans the slots of a list: patches `previous` when it was built with the same
 * dictionary and tuning and few enough tools arrive, compacting it first when the
 * arrivals' new slots would pass about twice the list's size.
 *
 * @param terms - the term ids of the dictionary the build uses
 * @param changed - every position where `tools` differs from `previous.tools`, when known
 * @throws the `RangeError` of a typed array beyond the size limit
 * @internal
 */
export function planSlots(
  previous: FieldIndex | undefined,
  tools: readonly ToolDefinition[],
  tuning: Bm25Tuning,
  terms: ReadonlyMap<string, number>,
  changed?: readonly number[],
): SlotPlan {
  const n = tools.length;
  let base =
    previous !== undefined && previous.terms === terms && patchable(tuning) ? previous : undefined;
  let match = base === undefined ? undefined : matchSlots(base, tools, changed);
  if (base !== undefined && match !== undefined) {
    const arriving = countArriving(match.slots, match.replaced);
    if (arriving > n * FRESH_SHARE + 16) {
      base = undefined;
      match = undefined;
    } else if (base.capacity + arriving > 2 * n + 1024) {
      base = compactIndex(base);
      match = matchSlots(base, tools, changed);
    }
  }
  const slots = match?.slots ?? new Int32Array(n).fill(-1);
  const replaced = match?.replaced;
  const oldCapacity = base?.capacity ?? 0;
  const arrivals: ToolDefinition[] = [];
  const visited = replaced ?? slots;
  for (let k = 0; k < visited.length; k++) {
    const i = replaced === undefined ? k : replaced[k]!;
    if (slots[i]! >= 0) continue;
    slots[i] = oldCapacity + arrivals.length;
    arrivals.push(tools[i]!);
  }
  return {
    base,
    tools,
    slots,
    replaced,
    revived: match?.revived ?? [],
    arrivals,
    oldCapacity,
    capacity: oldCapacity + arrivals.length,
  };
}

/** How many positions have no slot yet (among `replaced` alone, when given). */
function countArriving(slots: Int32Array, replaced: readonly number[] | undefined): number {
  let count = 0;
  if (replaced !== undefined) for (const i of replaced) count += slots[i]! < 0 ? 1 : 0;
  else for (let i = 0; i < slots.length; i++) if (slots[i]! < 0) count++;
  return count;
}
