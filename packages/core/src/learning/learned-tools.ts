// The tools a ranker indexes when a catalog has a learner: each tool with learned terms
// is a copy carrying them (`learnedTerms`), the others are the tools themselves, and the
// list is patched from the last one with the positions whose terms changed, so that a
// v2 ranker patches its index for those tools alone.

import { createToolList, differences, patchToolList, type ToolList } from '../tool-list.js';
import type { ToolDefinition } from '../types.js';
import type { LearnedTerms } from './learning-types.js';

interface Decorated {
  readonly terms: LearnedTerms;
  readonly tool: ToolDefinition;
}

/**
 * The lists with learned terms of one catalog cache (one session or runtime).
 *
 * @internal
 */
export class LearnedLists {
  // Per tool object: its copy with the terms it was last given.
  private readonly copies = new WeakMap<ToolDefinition, Decorated>();
  private last:
    | { base: ToolList; learned: ReadonlyMap<string, LearnedTerms>; list: ToolList }
    | undefined;

  /**
   * The list `base` with the learned terms of its tools: `base` itself when none of its
   * tools has any.
   *
   * @throws nothing
   */
  listOf(base: ToolList, learned: ReadonlyMap<string, LearnedTerms>): ToolList {
    const last = this.last;
    if (last !== undefined && last.base === base && last.learned === learned) return last.list;
    const list = learned.size === 0 ? base : this.decorate(base, learned, last?.list);
    this.last = { base, learned, list };
    return list;
  }

  private decorate(
    base: ToolList,
    learned: ReadonlyMap<string, LearnedTerms>,
    previous: ToolList | undefined,
  ): ToolList {
    let any = false;
    const tools = base.tools.map((tool) => {
      const terms = learned.get(tool.name);
      if (terms === undefined) return tool;
      any = true;
      const copy = this.copies.get(tool);
      if (copy !== undefined && copy.terms === terms) return copy.tool;
      const decorated = Object.freeze({ ...tool, learnedTerms: terms });
      this.copies.set(tool, { terms, tool: decorated });
      return decorated;
    });
    if (!any) return base;
    Object.freeze(tools);
    if (previous !== undefined && previous.tools.length === tools.length) {
      const changed = differences(previous.tools, tools, tools.length);
      if (changed !== undefined) return patchToolList(previous, tools, changed);
    }
    return createToolList(tools);
  }
}
