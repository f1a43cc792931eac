// Demotes the tools whose description says they are deprecated (see deprecation.ts):
// their score times `deprecatedWeight`, and below the score of a tool their description
// names, when that one scores. Planned once per index, on its first search.

import { deprecationOf } from '../deprecation.js';
import type { FieldIndex } from '../index/field-index.js';

/** Just below: a demoted tool never ties its replacement. */
const BELOW = 0.999;

/**
 * The demotion of one index: the slots of its deprecated tools, and the slots of the
 * replacements each names.
 *
 * @internal
 */
export class DeprecationPass {
  private constructor(
    private readonly slots: readonly number[],
    private readonly replacements: readonly (readonly [number, number])[],
    private readonly weight: number,
  ) {}

  /**
   * Plans the pass of an index; undefined when no tool of it is deprecated.
   *
   * @throws nothing
   */
  static plan(index: FieldIndex, weight: number): DeprecationPass | undefined {
    const slots: number[] = [];
    const replacements: [number, number][] = [];
    let slotOfName: Map<string, number> | undefined;
    index.tools.forEach((tool, at) => {
      const { deprecated, mentions } = deprecationOf(tool);
      if (!deprecated) return;
      const slot = index.order[at]!;
      slots.push(slot);
      if (mentions.length === 0) return;
      slotOfName ??= new Map(
        index.tools.map((other, position) => [other.name, index.order[position]!]),
      );
      for (const name of mentions) {
        const replacement = slotOfName.get(name);
        if (replacement !== undefined && replacement !== slot)
          replacements.push([slot, replacement]);
      }
    });
    return slots.length === 0 ? undefined : new DeprecationPass(slots, replacements, weight);
  }

  /**
   * Applies the demotion to a search's scores.
   *
   * @throws nothing
   */
  apply(scores: Float64Array): void {
    for (const slot of this.slots) scores[slot] = scores[slot]! * this.weight;
    for (const [slot, replacement] of this.replacements) {
      const above = scores[replacement]!;
      if (above > 0 && scores[slot]! >= above) scores[slot] = above * BELOW;
    }
  }
}
