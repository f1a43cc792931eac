// The groups of an index (a tool's toolset, else the `server` of a `server__tool` name):
// each slot's group and each group's slots in catalog order, for the sibling lift of the
// searcher. A patched index shares the member lists of the groups no tool left or
// joined, so that a patch reads the group of its arrivals only.

import type { ToolDefinition } from '../../types.js';

/**
 * The groups of an index.
 *
 * @internal
 */
export interface ToolGroups {
  /** Each slot's group, or -1 (slots of tools that left keep a stale one). */
  readonly groupOf: Int32Array;
  /** Each group's slots in catalog order (empty once its tools left). */
  readonly groupMembers: readonly (readonly number[])[];
  /** The group of each key; shared by patched indexes, which only add keys. */
  readonly groupIds: Map<string, number>;
}

/** A tool's group: its toolset, else the `server` of a `server__tool` name. */
function groupKey(tool: ToolDefinition): string | undefined {
  if (typeof tool.toolset === 'string' && tool.toolset !== '') return tool.toolset;
  const split = tool.name.indexOf('__');
  return split > 0 ? tool.name.slice(0, split) : undefined;
}

/**
 * The groups of a fresh index: ids in order of first appearance.
 *
 * @internal
 */
export function buildGroups(
  tools: readonly ToolDefinition[],
  order: Uint32Array,
  capacity: number,
): ToolGroups {
  const groupOf = new Int32Array(capacity).fill(-1);
  const groupMembers: number[][] = [];
  const groupIds = new Map<string, number>();
  for (let i = 0; i < tools.length; i++) {
    const key = groupKey(tools[i]!);
    if (key === undefined) continue;
    let group = groupIds.get(key);
    if (group === undefined) {
      group = groupMembers.length;
      groupIds.set(key, group);
      groupMembers.push([]);
    }
    groupOf[order[i]!] = group;
    groupMembers[group]!.push(order[i]!);
  }
  return { groupOf, groupMembers, groupIds };
}

/** What {@link patchGroups} patches from. @internal */
export interface PatchGroupsOptions {
  /** The previous index's groups, with its slot → catalog position map. */
  base: ToolGroups & { readonly position: Uint32Array };
  /** The new catalog. */
  tools: readonly ToolDefinition[];
  /** The new index's live slots in catalog order. */
  order: Uint32Array;
  /** Per slot of the new index: its catalog position. */
  position: Uint32Array;
  /** How many slots the new index has. */
  capacity: number;
  /** The first slot of the arrivals (the old capacity). */
  firstNew: number;
  /** Per old slot: 1 when its tool left. */
  left: Uint8Array;
  /** Old slots whose tool had left and comes back: they join their group. */
  revived: readonly number[];
  /**
   * The slots that left, when every kept tool kept its position (tools replaced in
   * place): the order holds without a check, and only these are visited.
   */
  leftInPlace?: ArrayLike<number> | undefined;
}

/**
 * The groups of an index patched from `base`: the groups of the tools that left and of
 * the arrivals (slots from `firstNew` on) are listed again, the others shared. Ids of
 * new keys follow the old ones, so they are not a fresh build's ids: the searcher orders
 * groups of equal score by the catalog position of their first member, which is the
 * order of a fresh build's ids. Undefined when the kept tools changed their relative
 * order (every member list would move): then the groups are built fresh.
 *
 * @param options - see {@link PatchGroupsOptions}
 * @internal
 */
export function patchGroups(options: PatchGroupsOptions): ToolGroups | undefined {
  const { base, tools, order, position, capacity, firstNew, left, revived, leftInPlace } = options;
  let last = -1;
  const back = revived.length === 0 ? undefined : new Set(revived);
  for (let i = 0; i < order.length && leftInPlace === undefined; i++) {
    const slot = order[i]!;
    if (slot >= firstNew || back?.has(slot)) continue;
    const before = base.position[slot]!;
    if (before < last) return undefined;
    last = before;
  }
  const groupOf = new Int32Array(capacity);
  groupOf.set(base.groupOf);
  groupOf.fill(-1, base.groupOf.length);
  const groupIds = base.groupIds;
  const groupMembers: (readonly number[])[] = base.groupMembers.slice();
  // The groups touched, with the slots that join each.
  const joining = new Map<number, number[]>();
  if (leftInPlace !== undefined) {
    for (let k = 0; k < leftInPlace.length; k++) {
      const group = base.groupOf[leftInPlace[k]!]!;
      if (group >= 0 && !joining.has(group)) joining.set(group, []);
    }
  } else {
    for (let slot = 0; slot < firstNew; slot++) {
      const group = base.groupOf[slot]!;
      if (left[slot] === 1 && group >= 0 && !joining.has(group)) joining.set(group, []);
    }
  }
  const joiners: number[] = [...revived];
  for (let slot = firstNew; slot < capacity; slot++) joiners.push(slot);
  for (const slot of joiners) {
    const key = groupKey(tools[position[slot]!]!);
    if (key === undefined) {
      groupOf[slot] = -1;
      continue;
    }
    let group = groupIds.get(key);
    if (group === undefined) {
      group = groupIds.size;
      groupIds.set(key, group);
    }
    groupOf[slot] = group;
    const slots = joining.get(group);
    if (slots === undefined) joining.set(group, [slot]);
    else slots.push(slot);
  }
  for (const [group, slots] of joining) {
    const members = (groupMembers[group] ?? []).filter((slot) => left[slot] !== 1);
    members.push(...slots);
    members.sort((a, b) => position[a]! - position[b]!);
    groupMembers[group] = members;
  }
  for (let group = 0; group < groupIds.size; group++) groupMembers[group] ??= [];
  return { groupOf, groupMembers, groupIds };
}
