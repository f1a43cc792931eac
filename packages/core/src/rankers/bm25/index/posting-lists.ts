// The postings step of a build: the arrivals' postings appended to their terms' lists,
// in slot order (arrival slots ascend), the other lists shared with the base.

import { appendPosting, trimPostingBuffer } from '../postings/posting-encoder.js';
import { FIELD_COUNT, type PostingBuffer } from '../postings/posting-format.js';
import { fieldFrequency, type PostingNorms } from '../postings/posting-weights.js';
import { appendableBuffer } from './shared-buffer.js';
import type { Departures } from './slot-fields.js';
import type { SlotPlan } from './slot-plan.js';
import type { AnalysedTools } from './tool-analysis.js';

/**
 * The posting lists of a build (see `FieldIndex`).
 *
 * @internal
 */
export interface PostingLists {
  readonly termBuffers: readonly (PostingBuffer | undefined)[];
  readonly termLength: Uint32Array;
  readonly termLast: Int32Array;
  readonly termCount: Uint32Array;
  readonly termCounted: Uint8Array;
}

/**
 * The base's posting lists with the arrivals' postings appended.
 *
 * @throws the `RangeError` of a typed array beyond the size limit
 * @internal
 */
export function appendArrivals(
  plan: SlotPlan,
  departures: Departures,
  analysed: AnalysedTools,
  norms: PostingNorms,
): PostingLists {
  const { base, oldCapacity } = plan;
  const { ids, frequencies, termStarts } = analysed;
  let vocabulary = base?.termLength.length ?? 0;
  for (let t = 0; t < ids.length; t++) if (ids[t]! >= vocabulary) vocabulary = ids[t]! + 1;
  const termBuffers: (PostingBuffer | undefined)[] =
    base === undefined ? [] : base.termBuffers.slice();
  const termLength = new Uint32Array(vocabulary);
  const termLast = new Int32Array(vocabulary).fill(-1);
  const termCount = new Uint32Array(vocabulary);
  const termCounted = new Uint8Array(vocabulary);
  if (base !== undefined) {
    termLength.set(base.termLength);
    termLast.set(base.termLast);
    termCount.set(base.termCount);
    // Which terms the tools that left or came back hold is not kept: counted again.
    if (departures.leaving.length === 0 && plan.revived.length === 0) {
      termCounted.set(base.termCounted);
    }
  } else {
    termCounted.fill(1);
  }
  // The terms this build writes to, each in a buffer it may append to.
  // Per term: 0 not written yet, 1 appending (room doubles), 2 a new list (trimmed).
  const writing: number[] = [];
  const state = new Uint8Array(vocabulary);
  for (let a = 0; a < analysed.count; a++) {
    const slot = oldCapacity + a;
    for (let t = termStarts[a]!; t < termStarts[a + 1]!; t++) {
      const packed = frequencies[t]!;
      const tf = fieldFrequency(packed, slot * FIELD_COUNT, norms);
      // A posting is made when its weight is above 0 (with every b in [0, 1] that does
      // not depend on the averages).
      if (!(tf > 0)) continue;
      const id = ids[t]!;
      if (state[id] === 0) {
        const shared = termBuffers[id];
        state[id] = shared === undefined ? 2 : 1;
        termBuffers[id] = appendableBuffer(shared, termLength[id]!, termLength[id]! * 2);
        writing.push(id);
      }
      appendPosting(termBuffers[id]!, slot - termLast[id]!, packed);
      termLast[id] = slot;
      termCount[id]!++;
    }
  }
  for (const id of writing) {
    const buffer = termBuffers[id]!;
    termLength[id] = buffer.used;
    // New lists are trimmed to their bytes; lists that grow keep room to double.
    if (state[id] === 2) trimPostingBuffer(buffer);
  }
  return { termBuffers, termLength, termLast, termCount, termCounted };
}
