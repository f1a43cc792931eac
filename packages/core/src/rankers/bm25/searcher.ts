// The searcher of a field index: scores a query's terms (its words weighted by part of
// speech, synonyms, related words), adds proximity and the group boost, keeps a partial
// top-k, ranks exact names first, and falls back to a substring match of names.

import type { Analyzer } from '../../analyzer.js';
import { sharedRelatedWords } from '../../related-words.js';
import type { RankedTool, RankerIndex } from '../ranker.js';
import { createCoverageTracker } from './coverage-tracker.js';
import { exactMatches, quotedIdentifiers } from './exact-names.js';
import { documentFrequency, type FieldIndex } from './field-index.js';
import { partOfSpeechWeights } from './part-of-speech.js';
import { PostingCursor } from './postings/posting-cursor.js';
import { PostingWeights } from './postings/posting-weights.js';
import { scorePostings } from './postings/score-postings.js';
import { expansionsFor, mentionedKinds } from './query-expansion.js';
import { MARKED_TERMS, type SearchScratch } from './search-scratch.js';
import { FALLBACK_SCORE } from './spec-ranker.js';
import { currentTerms } from './term-dictionary.js';
import type { Bm25Tuning } from './tuning.js';
import { adjacentCount } from './vector-codec.js';
import { SlabReader } from './vector-slab.js';

function idfOf(df: number, n: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/** How many of the best tools before the group boost settle it (see `boostFromLeaders`). */
const LEADERS = 32;

/**
 * Options of {@link createSearcher} for tests.
 *
 * @internal
 */
export interface SearcherOptions {
  /** The leaders that settle the group boost; 0 for the full passes. @defaultValue 32 */
  leaders?: number;
  /** Told which way each search with a group boost went. */
  onGroupBoost?: (way: 'settled' | 'unsettled' | 'rechecked') => void;
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
  // The last kept tool's score once `limit` are kept (0 before: scores must be above it).
  let threshold = 0;
  for (let i = 0; i < count; i++) {
    const doc = candidates[i]!;
    const score = scores[doc]!;
    if (!(score > 0) || score < threshold) continue;
    if (best.length === limit) {
      const last = best[limit - 1]!;
      if (score === threshold && position[doc]! > position[last]!) continue;
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
    if (best.length === limit) threshold = scores[best[limit - 1]!]!;
  }
  return best;
}

/**
 * The searcher of an index: a {@link RankerIndex} whose searches (synchronous) use the
 * ranker's scratch arrays, grown to the index.
 *
 * @param posCache - the part-of-speech weights per query text, shared by the indexes of a ranker
 * @param scratch - the per-slot arrays of searches, shared by the indexes of a ranker
 * @param options - for tests: the leaders that settle the group boost
 * @internal
 */
export function createSearcher(
  index: FieldIndex,
  analyzer: Analyzer,
  tuning: Bm25Tuning,
  posCache: Map<string, Map<string, number>>,
  scratch: SearchScratch,
  options: SearcherOptions = {},
): RankerIndex {
  const leaderCount = options.leaders ?? LEADERS;
  const { n, capacity, termBuffers, termLength, alive, position } = index;
  const { fieldWeights, fieldBs, averages } = index;
  const { groupOf, groupMembers } = index;
  const k1 = tuning.k1;
  // The dictionary the index was built with (a full dictionary is replaced, not changed).
  const terms = currentTerms();
  const expansions = expansionsFor(analyzer, tuning);
  const relatedWords =
    tuning.relatedWords && tuning.relatedWordsWeight > 0 && tuning.analyzer.normalize === 'stem';
  const relatedWeight = tuning.relatedWordsWeight;
  const vocabulary = termLength.length;
  // Document frequencies, counted from the postings where a patch left them unknown.
  const df = (id: number): number => documentFrequency(index, id);
  const empty = (id: number): boolean => id >= vocabulary || df(id) === 0;
  const weights = new PostingWeights(fieldWeights, fieldBs, averages, k1);
  const cursor = new PostingCursor();
  const longCursor = new PostingCursor();
  // The scratch arrays of the current search (the ranker's, grown to this index).
  let scores = scratch.scores;
  let seen = scratch.seen;
  let touched = scratch.touched;
  let termMask = scratch.termMask;
  let groupBest: Float64Array | undefined;
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
    // The terms that stand beside another query term (proximity pairs).
    const inPairs: number[] = [];
    for (let i = 1; i < termIds.length; i++) {
      if (termIds[i - 1]! >= 0 && termIds[i]! >= 0) inPairs.push(termIds[i - 1]!, termIds[i]!);
    }
    // Each distinct query term counts once: repeats in long queries are not evidence.
    for (let q = 0; q < ids.length; q++) {
      const id = ids[q]!;
      const idf = idfOf(df(id), n) * factors[q]!;
      scratch.touchedCount = touchedCount;
      scorePostings(
        {
          bytes: termBuffers[id]!.bytes,
          end: termLength[id]!,
          idf,
          // Terms of proximity pairs mark their slots, for the pairs' intersections.
          bit: q < MARKED_TERMS && tuning.proximityWeight > 0 && inPairs.includes(id) ? 1 << q : 0,
        },
        index,
        weights,
        scratch,
      );
      touchedCount = scratch.touchedCount;
    }
    if (tuning.proximityWeight > 0) addProximity(termIds, ids);
    if (coverage !== undefined && floor !== undefined) {
      usedWords = 0;
      // A word's weight is its rarity here (a word no tool uses is as rare as can be)
      // and its part of speech, as in the score.
      const weights = words.map((word) => {
        const id = terms.get(word);
        const frequency = id === undefined || empty(id) ? 0 : df(id);
        if (frequency > 0) usedWords++;
        const known = frequency > 0 ? 1 : floor.unknownWordWeight;
        return idfOf(frequency, n) * known * (byTerm?.get(word) ?? 1);
      });
      coverage.start(weights);
      // Each word's own term first: a tool is credited once per word, with its first credit.
      for (let word = 0; word < words.length; word++) {
        for (let q = 0; q < ids.length; q++) {
          if (origins[q] !== word) continue;
          const id = ids[q]!;
          cursor.open(termBuffers[id]!.bytes, termLength[id]!);
          coverage.credit(word, cursor, alive, credits[q]!);
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

  let reader: SlabReader | undefined;
  // The sentences' bytes may be replaced by a grown copy (same prefix) by a later patch.
  const sentenceReader = (): SlabReader => {
    if (reader === undefined || reader.bytes !== index.sentences.bytes) {
      reader = new SlabReader(index.sentences.bytes);
    }
    return reader;
  };

  /**
   * The tools of an adjacent pair (a, b) found by walking both posting lists (for terms
   * past those that mark slots): the alive slots of the shorter list, then the longer
   * list walked against them. Writes the scratch's pair lists from `from`; returns how
   * many it wrote.
   */
  const walkPair = (a: number, b: number, from: number): number => {
    const aShorter = termLength[a]! <= termLength[b]!;
    const shortId = aShorter ? a : b;
    const longId = aShorter ? b : a;
    const candidates = scratch.candidates(df(shortId));
    let count = 0;
    cursor.open(termBuffers[shortId]!.bytes, termLength[shortId]!);
    while (cursor.next()) if (alive[cursor.slot] !== 0) candidates[count++] = cursor.slot;
    let found = from;
    longCursor.open(termBuffers[longId]!.bytes, termLength[longId]!);
    for (let next = 0; next < count && longCursor.next(); ) {
      const doc = longCursor.slot;
      while (next < count && candidates[next]! < doc) next++;
      if (next === count || candidates[next] !== doc) continue;
      next++;
      const adjacent = adjacentCount(sentenceReader(), index.slotSentence[doc]!, a, b);
      if (adjacent > 0) {
        if (found === scratch.pairDocs.length) scratch.growPairs(found + 1, found);
        scratch.pairDocs[found] = doc;
        scratch.pairCounts[found] = adjacent;
        found++;
      }
    }
    return found - from;
  };
  /** Adds a pair's bonus to each of its tools (the scratch's pair entries `from` to `to` of pair `pair`). */
  const addPair = (pair: number, from: number, to: number, found: number): void => {
    const { pairDocs, pairCounts, pairOf } = scratch;
    const idf = idfOf(found, n) * tuning.proximityWeight;
    for (let j = from; j < to; j++) {
      if (pairOf[j] !== pair) continue;
      const count = pairCounts[j]!;
      scores[pairDocs[j]!]! += (idf * (count * (k1 + 1))) / (k1 + count);
    }
  };
  /**
   * Proximity: each distinct pair of adjacent query terms (a, b) that is also adjacent,
   * in that order, in the first sentence of a tool's description adds the pair's idf
   * (over the tools that have it) × proximityWeight × its saturated count. The tools of
   * pairs whose terms both marked the slots holding them in the description (the first
   * sentence is the description's) are found in one pass over the touched tools for
   * all such pairs; the tools of other pairs by walking both posting lists side by side.
   * The bonuses are added pair after pair, in query order, as each pair's idf needs its
   * count.
   */
  const addProximity = (termIds: readonly number[], ids: readonly number[]): void => {
    const firsts: number[] = [];
    const seconds: number[] = [];
    // Per pair: the marks of its two terms (0: walked), or -1 when a term is in no tool.
    const marks: number[] = [];
    let anyMarked = false;
    for (let i = 1; i < termIds.length; i++) {
      const a = termIds[i - 1]!;
      const b = termIds[i]!;
      if (a < 0 || b < 0 || a === b || a >= vocabulary || b >= vocabulary) continue;
      let repeated = false;
      for (let d = 0; d < firsts.length && !repeated; d++) {
        repeated = firsts[d] === a && seconds[d] === b;
      }
      if (repeated) continue;
      firsts.push(a);
      seconds.push(b);
      if (df(a) === 0 || df(b) === 0) {
        marks.push(-1);
        continue;
      }
      const qa = ids.indexOf(a);
      const qb = ids.indexOf(b);
      const marked = qa >= 0 && qa < MARKED_TERMS && qb >= 0 && qb < MARKED_TERMS;
      marks.push(marked ? (1 << qa) | (1 << qb) : 0);
      anyMarked ||= marked;
    }
    if (firsts.length === 0) return;
    // The marked pairs' tools, in touched order: a tool needs two marks to be in one.
    let entries = 0;
    if (anyMarked) {
      const mask = termMask;
      for (let t = 0; t < touchedCount; t++) {
        const doc = touched[t]!;
        const held = mask[doc]!;
        if ((held & (held - 1)) === 0) continue;
        for (let p = 0; p < marks.length; p++) {
          const both = marks[p]!;
          if (both <= 0 || (held & both) !== both) continue;
          const adjacent = adjacentCount(
            sentenceReader(),
            index.slotSentence[doc]!,
            firsts[p]!,
            seconds[p]!,
          );
          if (adjacent === 0) continue;
          if (entries === scratch.pairDocs.length) scratch.growPairs(entries + 1, entries);
          scratch.pairDocs[entries] = doc;
          scratch.pairCounts[entries] = adjacent;
          scratch.pairOf[entries] = p;
          entries++;
        }
      }
    }
    for (let p = 0; p < marks.length; p++) {
      const both = marks[p]!;
      if (both < 0) continue;
      if (both > 0) {
        let found = 0;
        for (let j = 0; j < entries; j++) if (scratch.pairOf[j] === p) found++;
        if (found > 0) addPair(p, 0, entries, found);
        continue;
      }
      const found = walkPair(firsts[p]!, seconds[p]!, entries);
      scratch.pairOf.fill(p, entries, entries + found);
      if (found > 0) addPair(p, entries, entries + found, found);
    }
  };

  /** Whether group `a` ranks before group `b`: best score, then its first tool's position. */
  const before = (a: number, b: number, best: Float64Array): boolean => {
    const difference = best[b]! - best[a]!;
    if (difference !== 0) return difference < 0;
    return position[groupMembers[a]![0]!]! < position[groupMembers[b]![0]!]!;
  };
  /**
   * Lifts every tool of the best groups by a share of the group's best score. Untouched
   * members all get the same score and tie in catalog order, so only the first `limit`
   * of them can reach the results: the others are not visited.
   */
  /** The best `groupTop` of `groups` (each with its best score in `best`), in order. */
  const bestGroups = (groups: readonly number[], best: Float64Array): number[] => {
    // Kept by insertion: a sort of every touched group would cost more than the rest
    // of a search at 100,000 tools.
    const top: number[] = [];
    const want = Math.min(groups.length, tuning.groupTop);
    for (let g = 0; g < groups.length && want > 0; g++) {
      const group = groups[g]!;
      if (top.length === want && !before(group, top[want - 1]!, best)) continue;
      let at = top.length === want ? want - 1 : top.length;
      while (at > 0 && before(group, top[at - 1]!, best)) at--;
      top.splice(at, 0, group);
      if (top.length > want) top.pop();
    }
    return top;
  };
  /**
   * Each lifted group's members: the touched ones gain a share of the group's best
   * score, and the first `limit` untouched ones get it as their score (untouched members
   * all tie, in catalog order, so the others cannot reach the results). A member is in
   * one group only. `visit` is told every member whose score the lift set or raised.
   */
  const liftGroups = (
    top: readonly number[],
    best: Float64Array,
    limit: number,
    visit?: (doc: number) => void,
  ): void => {
    for (const group of top) {
      const value = tuning.groupBoost * best[group]!;
      let added = 0;
      for (const doc of groupMembers[group]!) {
        if (seen[doc] === 1) {
          if (value > 0) scores[doc]! += value;
          visit?.(doc);
          continue;
        }
        if (added === limit) continue;
        touch(doc);
        scores[doc] = value;
        visit?.(doc);
        added++;
      }
    }
  };
  /** The group boost over every touched tool: each touched group's best, then the lift. */
  const boostGroups = (limit: number): void => {
    groupBest ??= new Float64Array(groupMembers.length);
    const best = groupBest;
    // Locals, not the closure's variables: this loop runs over every touched tool.
    const touched = scratch.touched;
    const scores = scratch.scores;
    const groups: number[] = [];
    const count = touchedCount;
    for (let i = 0; i < count; i++) {
      const doc = touched[i]!;
      const group = groupOf[doc]!;
      if (group < 0) continue;
      if (best[group] === 0) groups.push(group);
      if (scores[doc]! > best[group]!) best[group] = scores[doc]!;
    }
    liftGroups(bestGroups(groups, best), best, limit);
    for (const group of groups) best[group] = 0;
  };
  /**
   * The results of the group boost from the best tools before it (the leaders), without
   * a pass over every touched tool for the groups and another for the results: the
   * groups of the leaders are every group whose best score is above the last leader's,
   * and the tools the lift does not touch keep their scores. Undefined when that does
   * not settle the answer (too few groups among the leaders, or ties with the last
   * leader's score): the caller then takes the full passes.
   */
  const boostFromLeaders = (k: number): number[] | undefined => {
    const leaders = topK(scores, position, touched, touchedCount, leaderCount);
    // Fewer leaders than asked: every tool with a score is a leader.
    const floorScore = leaders.length < leaderCount ? 0 : scores[leaders[leaderCount - 1]!]!;
    groupBest ??= new Float64Array(groupMembers.length);
    const best = groupBest;
    const groups: number[] = [];
    for (const doc of leaders) {
      const group = groupOf[doc]!;
      // Leaders come best first: a group's first leader holds its best score.
      if (group < 0 || best[group] !== 0) continue;
      best[group] = scores[doc]!;
      groups.push(group);
    }
    const top = bestGroups(groups, best);
    // Settled when the groups lifted are every group above the last leader's score.
    const settled =
      top.length === tuning.groupTop
        ? best[top[top.length - 1]!]! > floorScore
        : leaders.length < leaderCount;
    if (!settled) {
      for (const group of groups) best[group] = 0;
      options.onGroupBoost?.('unsettled');
      return undefined;
    }
    const candidates: number[] = [...leaders];
    const listed = new Set(leaders);
    liftGroups(top, best, k, (doc) => {
      if (!listed.has(doc)) {
        listed.add(doc);
        candidates.push(doc);
      }
    });
    for (const group of groups) best[group] = 0;
    const results = topK(scores, position, Uint32Array.from(candidates), candidates.length, k);
    // A tool outside the candidates kept a score of at most the last leader's.
    if (
      (results.length === k && scores[results[k - 1]!]! > floorScore) ||
      leaders.length < leaderCount
    ) {
      options.onGroupBoost?.('settled');
      return results;
    }
    options.onGroupBoost?.('rechecked');
    return topK(scores, position, touched, touchedCount, k);
  };

  const reset = (): void => {
    const { touched, scores, seen, termMask } = scratch;
    const count = touchedCount;
    coverage?.reset(touched, count);
    if (count * 4 > capacity) {
      // A search that touched much of the catalog: clearing whole arrays costs less
      // than writes scattered over them.
      scores.fill(0, 0, capacity);
      seen.fill(0, 0, capacity);
      termMask.fill(0, 0, capacity);
    } else {
      for (let i = 0; i < count; i++) {
        const doc = touched[i]!;
        scores[doc] = 0;
        seen[doc] = 0;
        termMask[doc] = 0;
      }
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
      scratch.ensure(capacity);
      scores = scratch.scores;
      seen = scratch.seen;
      touched = scratch.touched;
      termMask = scratch.termMask;
      let results: RankedTool[];
      try {
        accumulate(query);
        const grouped = tuning.groupBoost > 0 && groupMembers.length > 0;
        // Without a relevance floor (which reads every touched tool), the leaders settle
        // the group boost and the results in most searches.
        let best =
          grouped && coverage === undefined && leaderCount > 0 ? boostFromLeaders(k) : undefined;
        if (best === undefined) {
          if (grouped) boostGroups(k);
          applyFloor();
          best = topK(scores, position, touched, touchedCount, k);
        }
        results = best.map((doc) => ({
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
