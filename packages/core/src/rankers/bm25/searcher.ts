// The searcher of a field index: scores a query's terms (its words weighted by part of
// speech, synonyms, related words), adds proximity and the group boost, keeps a partial
// top-k, ranks exact names first, and falls back to a substring match of names.

import type { Analyzer } from '../../analyzer.js';
import { sharedRelatedWords } from '../../related-words.js';
import type { RankedTool, RankerIndex } from '../ranker.js';
import { createCoverageTracker } from './coverage-tracker.js';
import { exactMatches, quotedIdentifiers } from './exact-names.js';
import { type FieldIndex, fieldFrequency } from './field-index.js';
import { partOfSpeechWeights } from './part-of-speech.js';
import { expansionsFor, mentionedKinds } from './query-expansion.js';
import { FALLBACK_SCORE } from './spec-ranker.js';
import { currentTerms } from './term-dictionary.js';
import type { Bm25Tuning } from './tuning.js';
import { adjacentCount, FIELD_COUNT } from './vector-codec.js';
import { SlabReader, type VectorSlab } from './vector-slab.js';

function idfOf(df: number, n: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/** The `limit` best of the candidates, best first; equal scores keep catalog order. */
function topK(
  scores: Float64Array,
  position: Uint32Array,
  candidates: Uint32Array,
  count: number,
  limit: number,
): number[] {
  const best: number[] = [];
  for (let i = 0; i < count; i++) {
    const doc = candidates[i]!;
    const score = scores[doc]!;
    if (!(score > 0)) continue;
    if (best.length === limit) {
      const last = best[limit - 1]!;
      const lastScore = scores[last]!;
      if (score < lastScore || (score === lastScore && position[doc]! > position[last]!)) continue;
      best.pop();
    }
    let at = best.length;
    while (at > 0) {
      const previous = best[at - 1]!;
      const previousScore = scores[previous]!;
      if (
        previousScore > score ||
        (previousScore === score && position[previous]! < position[doc]!)
      )
        break;
      at--;
    }
    best.splice(at, 0, doc);
  }
  return best;
}

/**
 * The searcher of an index: a {@link RankerIndex} whose searches (synchronous) reuse
 * one set of scratch arrays sized by the index.
 *
 * @param posCache - the part-of-speech weights per query text, shared by the indexes of a ranker
 * @internal
 */
export function createSearcher(
  index: FieldIndex,
  analyzer: Analyzer,
  tuning: Bm25Tuning,
  posCache: Map<string, Map<string, number>>,
): RankerIndex {
  const { n, capacity, termBuffers, termLength, termCount, alive, position } = index;
  const { lengths, fieldWeights, fieldBs, averages } = index;
  const { groupOf, groupMembers } = index;
  const k1 = tuning.k1;
  // The dictionary the index was built with (a full dictionary is replaced, not changed).
  const terms = currentTerms();
  const expansions = expansionsFor(analyzer, tuning);
  const relatedWords =
    tuning.relatedWords && tuning.relatedWordsWeight > 0 && tuning.analyzer.normalize === 'stem';
  const relatedWeight = tuning.relatedWordsWeight;
  const vocabulary = termCount.length;
  const empty = (id: number): boolean => id >= vocabulary || termCount[id] === 0;
  // The posting weights of the terms queried so far.
  const weightsOf: (Float32Array | undefined)[] = [];
  // Scratch space reused by every query of this index (searches are synchronous).
  const scores = new Float64Array(capacity);
  const seen = new Uint8Array(capacity);
  const touched = new Uint32Array(capacity);
  const groupBest = new Float64Array(groupMembers.length);
  let touchedCount = 0;
  const floor = tuning.relevanceFloor === false ? undefined : tuning.relevanceFloor;
  const coverage = floor === undefined ? undefined : createCoverageTracker(capacity, floor);

  const touch = (doc: number): void => {
    if (seen[doc] === 0) {
      seen[doc] = 1;
      touched[touchedCount++] = doc;
    }
  };

  const accumulate = (query: string): void => {
    let previous = -1;
    const ids: number[] = [];
    const factors: number[] = [];
    const analysed = analyzer.analyze(query);
    const termIds: number[] = [];
    // For the relevance floor: the query's distinct content words, and for each term
    // searched the word it stands for (-1: none) and how much finding it covers the word.
    const words: string[] = [];
    const origins: number[] = [];
    const credits: number[] = [];
    const wordOf = (term: string): number => {
      if (coverage === undefined) return -1;
      const at = words.indexOf(term);
      return at >= 0 ? at : words.push(term) - 1;
    };
    for (const term of analysed) {
      const id = terms.get(term);
      termIds.push(id ?? -1);
      const word = wordOf(term);
      if (id === undefined || empty(id)) continue;
      if (id !== previous && !ids.includes(id)) {
        ids.push(id);
        factors.push(1);
        origins.push(word);
        credits.push(1);
      }
      previous = id;
    }
    let byTerm: Map<string, number> | undefined;
    if (tuning.partOfSpeechWeights !== false && ids.length > 1) {
      byTerm = partOfSpeechWeights(query, analyzer, tuning.partOfSpeechWeights, posCache);
      for (let i = 0; i < analysed.length; i++) {
        const weight = byTerm.get(analysed[i]!);
        if (weight === undefined) continue;
        const q = ids.indexOf(termIds[i]!);
        if (q >= 0) factors[q] = weight;
      }
    }
    const expansionCredit = floor?.expansionCredit ?? 0;
    const add = (term: string, factor: number, origin: number): void => {
      const id = terms.get(term);
      if (id === undefined || empty(id)) return;
      if (ids.includes(id)) return;
      ids.push(id);
      factors.push(factor);
      origins.push(origin);
      credits.push(expansionCredit);
    };
    if (expansions !== undefined) {
      const weight = tuning.expansionWeight;
      for (const term of analysed) {
        const synonyms = expansions.synonyms.get(term);
        if (synonyms === undefined) continue;
        for (const synonym of synonyms) add(synonym, weight, wordOf(term));
      }
      for (const term of mentionedKinds(query, expansions)) add(term, weight, -1);
    }
    if (relatedWords) {
      // Only the words the catalog does not use: they match nothing as they are.
      const table = sharedRelatedWords();
      for (let i = 0; i < analysed.length && table !== undefined; i++) {
        if (termIds[i]! >= 0 && ids.includes(termIds[i]!)) continue;
        const related = table.get(analysed[i]!);
        if (related !== undefined) {
          for (const term of related) add(term, relatedWeight, wordOf(analysed[i]!));
        }
      }
    }
    // Each distinct query term counts once: repeats in long queries are not evidence.
    for (let q = 0; q < ids.length; q++) {
      const id = ids[q]!;
      const { docs, codes } = termBuffers[id]!;
      const length = termLength[id]!;
      const idf = idfOf(termCount[id]!, n) * factors[q]!;
      let termWeights = weightsOf[id];
      if (termWeights === undefined) {
        // The saturated BM25F weights, as a fresh build would have stored them (float32),
        // computed once per term and index.
        termWeights = new Float32Array(length);
        for (let p = 0; p < length; p++) {
          const doc = docs[p]!;
          if (alive[doc] === 0) continue;
          const at = doc * FIELD_COUNT;
          const tf = fieldFrequency(codes[p]!, lengths, at, fieldWeights, fieldBs, averages);
          termWeights[p] = (tf * (k1 + 1)) / (k1 + tf);
        }
        weightsOf[id] = termWeights;
      }
      for (let p = 0; p < length; p++) {
        const doc = docs[p]!;
        if (alive[doc] === 0) continue;
        touch(doc);
        scores[doc]! += idf * termWeights[p]!;
      }
    }
    if (tuning.proximityWeight > 0) addProximity(termIds);
    if (coverage !== undefined && floor !== undefined) {
      usedWords = 0;
      // A word's weight is its rarity here (a word no tool uses is as rare as can be)
      // and its part of speech, as in the score.
      const weights = words.map((word) => {
        const id = terms.get(word);
        const df = id === undefined || empty(id) ? 0 : termCount[id]!;
        if (df > 0) usedWords++;
        const known = df > 0 ? 1 : floor.unknownWordWeight;
        return idfOf(df, n) * known * (byTerm?.get(word) ?? 1);
      });
      coverage.start(weights);
      // Each word's own term first: a tool is credited once per word, with its first credit.
      for (let word = 0; word < words.length; word++) {
        for (let q = 0; q < ids.length; q++) {
          if (origins[q] !== word) continue;
          const id = ids[q]!;
          const { docs, codes } = termBuffers[id]!;
          coverage.credit(word, docs, codes, termLength[id]!, alive, credits[q]!);
        }
      }
    }
  };

  // How many of the last query's content words the catalog uses.
  let usedWords = 0;
  /** Zeroes the score of every touched tool that holds too little of the query. */
  const applyFloor = (): void => {
    if (coverage === undefined || floor === undefined) return;
    // The word count is evidence about the query (does any tool hold enough of it?),
    // not about each hit: a tail hit with one word still serves a query that fits.
    const minWords = Math.min(floor.minWords, usedWords);
    let fits = false;
    for (let i = 0; i < touchedCount && !fits; i++) {
      const doc = touched[i]!;
      fits = coverage.words(doc) >= minWords || coverage.share(doc) >= floor.fitCoverage;
    }
    for (let i = 0; i < touchedCount; i++) {
      const doc = touched[i]!;
      if (!fits || coverage.share(doc) < floor.minCoverage) scores[doc] = 0;
    }
  };

  let pairDocs: Uint32Array | undefined;
  let pairCounts: Uint8Array | undefined;
  let readerSlab: VectorSlab | undefined;
  let reader: SlabReader | undefined;
  const readerOf = (slab: VectorSlab): SlabReader => {
    if (slab !== readerSlab) {
      readerSlab = slab;
      reader = new SlabReader(slab.bytes);
    }
    return reader!;
  };
  /**
   * Proximity: each distinct pair of adjacent query terms (a, b) that is also adjacent,
   * in that order, in the first sentence of a tool's description adds the pair's idf
   * (over the tools that have it) × proximityWeight × its saturated count. The tools are
   * found by intersecting the postings of a and b (both in catalog order).
   */
  const addProximity = (termIds: readonly number[]): void => {
    const done: number[] = [];
    for (let i = 1; i < termIds.length; i++) {
      const a = termIds[i - 1]!;
      const b = termIds[i]!;
      if (a < 0 || b < 0 || a === b || a >= vocabulary || b >= vocabulary) continue;
      let repeated = false;
      for (let d = 0; d < done.length && !repeated; d += 2) {
        repeated = done[d] === a && done[d + 1] === b;
      }
      if (repeated) continue;
      done.push(a, b);
      // Walk the shorter postings list; binary-search the longer one from where the
      // last search stopped (both are in catalog order).
      if (termCount[a] === 0 || termCount[b] === 0) continue;
      let shortDocs = termBuffers[a]!.docs;
      let longDocs = termBuffers[b]!.docs;
      let shortEnd = termLength[a]!;
      let longEnd = termLength[b]!;
      if (shortEnd > longEnd) {
        [shortDocs, longDocs] = [longDocs, shortDocs];
        [shortEnd, longEnd] = [longEnd, shortEnd];
      }
      let short = 0;
      let long = 0;
      pairDocs ??= new Uint32Array(n);
      pairCounts ??= new Uint8Array(n);
      let found = 0;
      for (; short < shortEnd && long < longEnd; short++) {
        const doc = shortDocs[short]!;
        if (alive[doc] === 0) continue;
        let low = long;
        let high = longEnd;
        while (low < high) {
          const middle = (low + high) >>> 1;
          if (longDocs[middle]! < doc) low = middle + 1;
          else high = middle;
        }
        long = low;
        if (long === longEnd || longDocs[long] !== doc) continue;
        const slab = index.slotSlab[doc]!;
        const count = adjacentCount(readerOf(slab), slab.starts[index.slotDoc[doc]!]!, a, b);
        if (count > 0) {
          pairDocs[found] = doc;
          pairCounts[found] = count;
          found++;
        }
      }
      if (found === 0) continue;
      const idf = idfOf(found, n) * tuning.proximityWeight;
      for (let j = 0; j < found; j++) {
        const count = pairCounts[j]!;
        scores[pairDocs[j]!]! += (idf * (count * (k1 + 1))) / (k1 + count);
      }
    }
  };

  const groupLift = new Float64Array(groupMembers.length);
  /**
   * Lifts every tool of the best groups by a share of the group's best score. Untouched
   * members all get the same score and tie in catalog order, so only the first `limit`
   * of them can reach the results: the others are not visited.
   */
  const boostGroups = (limit: number): void => {
    const groups: number[] = [];
    const count = touchedCount;
    for (let i = 0; i < count; i++) {
      const doc = touched[i]!;
      const group = groupOf[doc]!;
      if (group < 0) continue;
      if (groupBest[group] === 0) groups.push(group);
      if (scores[doc]! > groupBest[group]!) groupBest[group] = scores[doc]!;
    }
    // Equal groups in catalog order of their first tools (a fresh build's group ids).
    groups.sort(
      (a, b) =>
        groupBest[b]! - groupBest[a]! ||
        position[groupMembers[a]![0]!]! - position[groupMembers[b]![0]!]!,
    );
    const top = Math.min(groups.length, tuning.groupTop);
    for (let g = 0; g < top; g++)
      groupLift[groups[g]!] = tuning.groupBoost * groupBest[groups[g]!]!;
    for (let i = 0; i < count; i++) {
      const group = groupOf[touched[i]!]!;
      if (group >= 0 && groupLift[group]! > 0) scores[touched[i]!]! += groupLift[group]!;
    }
    for (let g = 0; g < top; g++) {
      const group = groups[g]!;
      let added = 0;
      for (const doc of groupMembers[group]!) {
        if (added === limit) break;
        if (seen[doc] === 1) continue;
        touch(doc);
        scores[doc] = groupLift[group]!;
        added++;
      }
    }
    for (const group of groups) {
      groupBest[group] = 0;
      groupLift[group] = 0;
    }
  };

  const reset = (): void => {
    coverage?.reset(touched, touchedCount);
    for (let i = 0; i < touchedCount; i++) {
      const doc = touched[i]!;
      scores[doc] = 0;
      seen[doc] = 0;
    }
    touchedCount = 0;
  };

  const exactFirst = (query: string, results: RankedTool[], limit: number): RankedTool[] => {
    const named = exactMatches(index, query);
    for (const word of quotedIdentifiers(query)) {
      for (const doc of exactMatches(index, word)) if (!named.includes(doc)) named.push(doc);
    }
    if (named.length === 0) return results;
    const top = (results[0]?.score ?? 0) + 1;
    const first = named.map((doc) => ({ name: index.tools[doc]!.name, score: top }));
    const firstNames = new Set(first.map((hit) => hit.name));
    return [...first, ...results.filter((hit) => !firstNames.has(hit.name))].slice(0, limit);
  };

  let lowerNames: string[] | undefined;
  const fallback = (query: string, limit: number): RankedTool[] => {
    const needle = query.toLowerCase().trim();
    if (needle === '') return [];
    lowerNames ??= index.tools.map((tool) => tool.name.toLowerCase());
    const hits: RankedTool[] = [];
    for (let doc = 0; doc < n && hits.length < limit; doc++) {
      if (lowerNames[doc]!.includes(needle)) {
        hits.push({ name: index.tools[doc]!.name, score: FALLBACK_SCORE });
      }
    }
    return hits;
  };

  return {
    search(query: string, limit: number): RankedTool[] {
      if (n === 0 || typeof query !== 'string' || !(limit >= 1)) return [];
      const k = Math.min(Math.floor(limit), n);
      let results: RankedTool[];
      try {
        accumulate(query);
        if (tuning.groupBoost > 0 && groupMembers.length > 0) boostGroups(k);
        applyFloor();
        results = topK(scores, position, touched, touchedCount, k).map((doc) => ({
          name: index.tools[position[doc]!]!.name,
          score: scores[doc]!,
        }));
      } finally {
        reset();
      }
      if (tuning.exactNameFirst) results = exactFirst(query, results, k);
      return results.length > 0 ? results : fallback(query, k);
    },
  };
}
