// The reference BM25 ranker (`preset: 'spec'`): the tokenizer, document text and
// scoring of the design contract, reproduced exactly. The baseline of evaluations.

import type { ToolDefinition } from '../../types.js';
import type { RankedTool, Ranker, RankerIndex } from '../ranker.js';

const K1 = 1.5;
const B = 0.75;
/**
 * The score of a tool found by the substring fallback (its name contains the query,
 * when no tool matches a term): below any real match. Both presets use it.
 *
 * @internal
 */
export const FALLBACK_SCORE = 0.1;

const SPEC_TOKEN = /[A-Za-z0-9]+/g;

/** `[A-Za-z0-9]+` runs, lowercased: the reference tokenizer. */
export function specTokenize(text: string): string[] {
  const tokens = text.match(SPEC_TOKEN);
  if (tokens === null) return [];
  for (let i = 0; i < tokens.length; i++) tokens[i] = tokens[i]!.toLowerCase();
  return tokens;
}

/** The reference document text: name with `_ . - :` as spaces, description, top-level parameter names. */
export function specDocumentText(tool: ToolDefinition): string {
  const properties = tool.inputSchema?.properties;
  const parameterNames =
    properties && typeof properties === 'object' && !Array.isArray(properties)
      ? Object.keys(properties)
      : [];
  return [tool.name.replace(/[_.\-:]/g, ' '), tool.description ?? '', ...parameterNames].join(' ');
}

const documentTokens = new WeakMap<ToolDefinition, Map<string, number>>();

function termFrequencies(tool: ToolDefinition): Map<string, number> {
  let tf = documentTokens.get(tool);
  if (tf === undefined) {
    tf = new Map();
    for (const token of specTokenize(specDocumentText(tool)))
      tf.set(token, (tf.get(token) ?? 0) + 1);
    documentTokens.set(tool, tf);
  }
  return tf;
}

interface Posting {
  docs: number[];
  tfs: number[];
}

function buildSpecIndex(tools: readonly ToolDefinition[]): RankerIndex {
  const n = tools.length;
  const lengths = new Float64Array(n);
  const postings = new Map<string, Posting>();
  let total = 0;
  for (let doc = 0; doc < n; doc++) {
    const tf = termFrequencies(tools[doc]!);
    let length = 0;
    for (const [term, count] of tf) {
      length += count;
      let posting = postings.get(term);
      if (posting === undefined) {
        posting = { docs: [], tfs: [] };
        postings.set(term, posting);
      }
      posting.docs.push(doc);
      posting.tfs.push(count);
    }
    lengths[doc] = length;
    total += length;
  }
  const avgdl = Math.max(1, n === 0 ? 0 : total / n);
  const lowerNames = tools.map((tool) => tool.name.toLowerCase());

  return {
    search(query: string, limit: number): RankedTool[] {
      if (n === 0 || limit < 1) return [];
      const scores = new Float64Array(n);
      let any = false;
      for (const term of specTokenize(query)) {
        const posting = postings.get(term);
        if (posting === undefined) continue;
        const df = posting.docs.length;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        for (let i = 0; i < df; i++) {
          const doc = posting.docs[i]!;
          const tf = posting.tfs[i]!;
          scores[doc]! +=
            (idf * (tf * (K1 + 1))) / (tf + K1 * (1 - B + (B * lengths[doc]!) / avgdl));
          any = true;
        }
      }
      const hits: { doc: number; score: number }[] = [];
      if (any) {
        for (let doc = 0; doc < n; doc++)
          if (scores[doc]! > 0) hits.push({ doc, score: scores[doc]! });
      }
      if (hits.length === 0) {
        const needle = query.toLowerCase();
        if (needle.length === 0) return [];
        for (let doc = 0; doc < n; doc++) {
          if (lowerNames[doc]!.includes(needle)) hits.push({ doc, score: FALLBACK_SCORE });
        }
      }
      // Array.prototype.sort is stable: ties keep catalog order.
      hits.sort((a, b) => b.score - a.score);
      return hits
        .slice(0, Math.floor(limit))
        .map((hit) => ({ name: tools[hit.doc]!.name, score: hit.score }));
    },
  };
}

/**
 * The reference BM25 ranker (`preset: 'spec'`), reproducing the seed exactly.
 * Use it as the baseline in evaluations; the default preset ranks better.
 *
 * @returns a {@link Ranker} with id `bm25:spec`
 * @throws nothing
 */
export function createSpecBm25Ranker(): Ranker {
  return {
    specificationVersion: 'v1',
    id: 'bm25:spec',
    index: buildSpecIndex,
  };
}
