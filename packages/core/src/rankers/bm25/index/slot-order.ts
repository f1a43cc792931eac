// The catalog order of a build's slots: the slot of each position, the position of
// each slot, and which slots are alive.

import type { SlotPlan } from './slot-plan.js';

/**
 * The order of a build's slots.
 *
 * @internal
 */
export interface SlotOrder {
  readonly order: Uint32Array;
  readonly position: Uint32Array;
  readonly alive: Uint8Array;
}

/**
 * Orders the slots of a plan; tools replaced in place copy the rest from the base.
 *
 * @throws the `RangeError` of a typed array beyond the size limit
 * @internal
 */
export function orderSlots(plan: SlotPlan): SlotOrder {
  const { base, replaced, slots, capacity } = plan;
  let order: Uint32Array;
  const position = new Uint32Array(capacity);
  const alive = new Uint8Array(capacity);
  if (base !== undefined && replaced !== undefined) {
    order = base.order.slice();
    position.set(base.position);
    alive.set(base.alive);
    for (const i of replaced) {
      const gone = base.order[i]!;
      // A freed slot reads as a fresh array's would: not alive, position 0.
      position[gone] = 0;
      alive[gone] = 0;
    }
  } else {
    order = new Uint32Array(slots.length);
  }
  const visited = replaced ?? slots;
  for (let k = 0; k < visited.length; k++) {
    const i = replaced === undefined ? k : replaced[k]!;
    const slot = slots[i]!;
    order[i] = slot;
    position[slot] = i;
    alive[slot] = 1;
  }
  return { order, position, alive };
}
