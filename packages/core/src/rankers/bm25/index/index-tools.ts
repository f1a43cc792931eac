// Builds the index of a tool list, or patches the previous one into it, in steps: plan
// the slots, analyse the arrivals, then the per-slot fields, the order, the postings and
// the groups, each a new array (or a shared buffer appended past its last prefix).

import { TOOL_FIELDS } from '../../../analyzer-fields.js';
import type { ToolDefinition } from '../../../types.js';
import { buildGroups, patchGroups } from '../tool-groups.js';
import type { Bm25Tuning } from '../tuning.js';
import type { FieldIndex, SlotFamily } from './field-index.js';
import { addLearned, NO_LEARNED_FIELD } from './learned-field.js';
import { appendArrivals } from './posting-lists.js';
import { averagesOf, departuresOf, placeFields } from './slot-fields.js';
import { orderSlots } from './slot-order.js';
import { planSlots } from './slot-plan.js';
import type { AnalysedTools } from './tool-analysis.js';

/**
 * Options of {@link indexTools}.
 *
 * @internal
 */
export interface IndexToolsOptions {
  /** An index of this tuning and dictionary to patch, if any. */
  readonly previous: FieldIndex | undefined;
  readonly tools: readonly ToolDefinition[];
  readonly tuning: Bm25Tuning;
  /** The term ids of the dictionary `analyse` interns into. */
  readonly terms: ReadonlyMap<string, number>;
  /** Analyses the tools that arrive, in catalog order (called once). */
  readonly analyse: (arrivals: readonly ToolDefinition[]) => AnalysedTools;
  /** Every position where `tools` differs from `previous.tools`, when known. */
  readonly changed?: readonly number[];
}

/**
 * Builds the index of a tool list, or patches `previous` (an index of this tuning and
 * dictionary) into it: the tools that left are marked dead and their lengths taken out
 * of the sums, the arrivals put in, the rest shared. Freed slots are not reused: when
 * they would pass the list's size, the previous index is compacted first (from its
 * postings, without analysing anything again).
 *
 * @param options - the list, the previous index and how to analyse (see {@link IndexToolsOptions})
 * @throws what `analyse` throws; the `RangeError` of a typed array beyond the size limit
 * @internal
 */
export function indexTools(options: IndexToolsOptions): FieldIndex {
  const { previous, tools, tuning, terms, analyse, changed } = options;
  const plan = planSlots(previous, tools, tuning, terms, changed);
  const { base, capacity, oldCapacity, replaced, revived } = plan;
  const analysed = analyse(plan.arrivals);
  const departures = departuresOf(plan);
  const family: SlotFamily = base?.family ?? { left: new WeakMap() };
  if (base !== undefined) {
    const { leaving } = departures;
    // The slot keeps its lengths, sentence and postings: the tool may come back.
    for (let g = 0; g < leaving.length; g++) {
      const slot = leaving[g]!;
      family.left.set(base.tools[base.position[slot]!]!, slot);
    }
  }
  const fields = placeFields(plan, departures, analysed);
  // The averages the length norms divide by (computed per posting at query time).
  const averages = averagesOf(fields.sums, tools.length);
  const fieldWeights = Float64Array.from(TOOL_FIELDS, (field) => tuning.fields[field].weight);
  const fieldBs = Float64Array.from(TOOL_FIELDS, (field) => tuning.fields[field].b);
  const { order, position, alive } = orderSlots(plan);
  const postings = appendArrivals(plan, departures, analysed, {
    lengths: fields.lengths,
    weights: fieldWeights,
    bs: fieldBs,
    averages,
  });
  const groups =
    (base !== undefined &&
      patchGroups({
        base,
        tools,
        order,
        position,
        capacity,
        firstNew: oldCapacity,
        left: departures.left,
        revived,
        leftInPlace: replaced === undefined ? undefined : departures.leaving,
      })) ||
    buildGroups(tools, order, capacity);
  return {
    n: tools.length,
    capacity,
    terms,
    tools,
    order,
    position,
    ...postings,
    alive,
    averages,
    fieldWeights,
    fieldBs,
    lengths: fields.lengths,
    sums: fields.sums,
    sentences: fields.sentences,
    sentenceLength: fields.sentences.used,
    slotSentence: fields.slotSentence,
    learned: addLearned(base?.learned ?? NO_LEARNED_FIELD, plan.arrivals, oldCapacity),
    learnedCount: new Map(),
    family,
    slotHashes: fields.slotHashes,
    nameFilter: fields.nameFilter,
    ...groups,
  };
}
