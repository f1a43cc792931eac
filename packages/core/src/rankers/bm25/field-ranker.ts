// The field-weighted BM25 (BM25F) ranker of the default preset: indexes a tool list
// from per-tool vectors (memoized per tool object, copied in runs from the last index),
// keeps the last few indexes for lists it sees again, and searches with searcher.ts.

import { createAnalyzer } from '../../analyzer.js';
import { winkInstance } from '../../analyzer-wink.js';
import type { ToolDefinition } from '../../types.js';
import type { Ranker, RankerIndex } from '../ranker.js';
import { buildIndex } from './field-index.js';
import { createSearcher } from './searcher.js';
import { currentGeneration, renewTermsIfFull } from './term-dictionary.js';
import { type Bm25TuningOverrides, resolveBm25Tuning } from './tuning.js';
import { writeVector } from './vector-codec.js';
import { SlabWriter, VectorMemo, type VectorSlab } from './vector-slab.js';

// Per kind of analysis, the vectors of the tools seen, memoized per tool object.
// Module-level on purpose: a new ranker (one per request, say) finds the vectors the
// rankers before it made, instead of analysing every tool again.
const vectorMemos = new Map<string, VectorMemo<ToolDefinition>>();

function vectorMemoFor(analyzerId: string): VectorMemo<ToolDefinition> {
  let memo = vectorMemos.get(analyzerId);
  if (memo === undefined) {
    memo = new VectorMemo();
    vectorMemos.set(analyzerId, memo);
  }
  return memo;
}

/** How many recent indexes a ranker keeps for tool lists it sees again. */
const INDEX_CACHE_SIZE = 2;

interface CachedIndex {
  readonly tools: readonly ToolDefinition[];
  readonly index: RankerIndex;
  /** The vector of each tool. */
  readonly slab: VectorSlab;
}

function sameTools(a: readonly ToolDefinition[], b: readonly ToolDefinition[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Creates the field-weighted BM25 (BM25F) ranker behind the default preset.
 *
 * Speed by design: each tool's analysed fields are memoized per tool object (a
 * `WeakMap`), terms are interned to integers, postings are typed arrays, and a query
 * touches only the postings of its terms and keeps a partial top-k. Indexing the same
 * sequence of tool objects again returns the index built before; indexing a list where
 * a few tools changed analyses only those.
 *
 * @internal
 */
export function createFieldBm25Ranker(
  overrides: Bm25TuningOverrides = {},
  id = 'bm25:default',
): Ranker {
  const tuning = resolveBm25Tuning(overrides);
  const analyzer = createAnalyzer(tuning.analyzer);
  const vectors = vectorMemoFor(analyzer.id);
  const recent: CachedIndex[] = [];
  // Part-of-speech weights per query text, shared by the indexes of this ranker.
  const posCache = new Map<string, Map<string, number>>();
  return {
    specificationVersion: 'v1',
    id,
    index(tools: readonly ToolDefinition[]): RankerIndex {
      const hit = recent.findIndex((entry) => sameTools(entry.tools, tools));
      if (hit >= 0) {
        const entry = recent[hit]!;
        if (hit > 0) {
          recent.splice(hit, 1);
          recent.unshift(entry);
        }
        return entry.index;
      }
      // Loads the query tagger (wink-nlp, a one-time 0.2 s) with the first index rather
      // than in the middle of a first search.
      if (tuning.partOfSpeechWeights !== false) winkInstance('pos');
      renewTermsIfFull();
      const generation = currentGeneration();
      // Tools at the same position as in the last index take its vector, copied in runs:
      // a pointer compare instead of a memo lookup per tool.
      const last = recent[0];
      const lastSlab = last !== undefined && last.slab.generation === generation ? last : undefined;
      const n = tools.length;
      const capacity =
        lastSlab !== undefined && lastSlab.tools.length > 0
          ? Math.ceil((lastSlab.slab.bytes.length / lastSlab.tools.length) * n * 1.05)
          : n * 256;
      const writer = new SlabWriter(n, capacity);
      let run = -1;
      for (let i = 0; i < n; i++) {
        const tool = tools[i]!;
        if (lastSlab !== undefined && lastSlab.tools[i] === tool) {
          if (run < 0) run = i;
          continue;
        }
        if (run >= 0) {
          writer.copy(lastSlab!.slab, run, i);
          run = -1;
        }
        const doc = vectors.find(tool, generation);
        if (doc >= 0) writer.copy(vectors.found!, doc, doc + 1);
        else writeVector(tool, analyzer, writer);
      }
      if (run >= 0) writer.copy(lastSlab!.slab, run, n);
      vectors.found = undefined;
      const slab = writer.finish(generation);
      const list = [...tools];
      vectors.remember(list, slab);
      const index = createSearcher(buildIndex(list, slab, tuning), analyzer, tuning, posCache);
      recent.unshift({ tools: list, index, slab });
      if (recent.length > INDEX_CACHE_SIZE) recent.pop();
      return index;
    },
  };
}
