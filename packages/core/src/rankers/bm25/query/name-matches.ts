// The searches by name that frame the scored results: tools a query names exactly come
// first, and a query nothing scored for falls back to the tools whose names contain it.

import type { RankedTool } from '../../ranker.js';
import { exactMatches, quotedIdentifiers, type ToolNames } from '../exact-names.js';
import { FALLBACK_SCORE } from '../spec-ranker.js';

/**
 * The results with the tools the query names (as a whole, or as identifiers it quotes)
 * first, scored above the best, then the others; at most `limit`.
 *
 * @throws nothing
 * @internal
 */
export function exactNamesFirst(
  index: ToolNames,
  query: string,
  results: RankedTool[],
  limit: number,
): RankedTool[] {
  const named = exactMatches(index, query);
  for (const word of quotedIdentifiers(query)) {
    for (const position of exactMatches(index, word)) {
      if (!named.includes(position)) named.push(position);
    }
  }
  if (named.length === 0) return results;
  const top = (results[0]?.score ?? 0) + 1;
  const first = named.map((position) => ({ name: index.tools[position]!.name, score: top }));
  const firstNames = new Set(first.map((hit) => hit.name));
  return [...first, ...results.filter((hit) => !firstNames.has(hit.name))].slice(0, limit);
}

/**
 * The first `limit` tools, in catalog order, whose lowercased names contain the
 * lowercased query, each scored {@link FALLBACK_SCORE}.
 *
 * @param lowerNamesOf - the tools' lowercased names, in catalog order (asked only for a
 *   query that is not blank)
 * @throws nothing
 * @internal
 */
export function namesContaining(
  tools: readonly { readonly name: string }[],
  lowerNamesOf: () => readonly string[],
  query: string,
  limit: number,
): RankedTool[] {
  const needle = query.toLowerCase().trim();
  if (needle === '') return [];
  const lowerNames = lowerNamesOf();
  const hits: RankedTool[] = [];
  for (let position = 0; position < tools.length && hits.length < limit; position++) {
    if (lowerNames[position]!.includes(needle)) {
      hits.push({ name: tools[position]!.name, score: FALLBACK_SCORE });
    }
  }
  return hits;
}
