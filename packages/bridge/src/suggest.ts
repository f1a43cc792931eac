import type { ToolCatalog } from '@tool-search/core';

const MAX_NAME_FOR_DISTANCE = 200;

const FAR = 1 << 20;
let previousRow = new Int32Array(64);
let currentRow = new Int32Array(64);

/**
 * The Levenshtein distance of two strings when it is at most `bound`, else
 * `Infinity`. Computes only a band around the diagonal and reuses two rows across
 * calls: suggestions scan every name of catalogs of thousands of tools.
 *
 * @param a - one string
 * @param b - the other
 * @param bound - the largest distance of interest, at least 0
 * @returns the distance, or `Infinity` when it exceeds `bound`
 * @throws nothing
 */
export function boundedDistance(a: string, b: string, bound: number): number {
  const n = a.length;
  const m = b.length;
  if (Math.abs(n - m) > bound) return Number.POSITIVE_INFINITY;
  if (previousRow.length <= m + 1) {
    previousRow = new Int32Array(m + 2);
    currentRow = new Int32Array(m + 2);
  }
  let previous = previousRow;
  let current = currentRow;
  for (let j = 0; j <= m; j += 1) previous[j] = j;
  for (let i = 1; i <= n; i += 1) {
    const lo = Math.max(1, i - bound);
    const hi = Math.min(m, i + bound);
    current[lo - 1] = lo === 1 ? i : FAR;
    let rowMin = current[lo - 1]!;
    const code = a.charCodeAt(i - 1);
    for (let j = lo; j <= hi; j += 1) {
      const cost = code === b.charCodeAt(j - 1) ? 0 : 1;
      let value = previous[j - 1]! + cost;
      const up = previous[j]! + 1;
      const left = current[j - 1]! + 1;
      if (up < value) value = up;
      if (left < value) value = left;
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (hi < m) current[hi + 1] = FAR;
    if (rowMin > bound) return Number.POSITIVE_INFINITY;
    const swap = previous;
    previous = current;
    current = swap;
  }
  const distance = previous[m]!;
  return distance > bound ? Number.POSITIVE_INFINITY : distance;
}

// A lower bound of the edit distance from character counts (codes folded into 256
// buckets, which only lowers the bound): rules out most names without the DP.
function countBound(wantedCounts: Int32Array, wantedLength: number, candidate: string): number {
  let extra = 0;
  const taken: number[] = [];
  for (let index = 0; index < candidate.length; index += 1) {
    const bucket = candidate.charCodeAt(index) & 255;
    if (wantedCounts[bucket]! > 0) {
      wantedCounts[bucket]! -= 1;
      taken.push(bucket);
    } else {
      extra += 1;
    }
  }
  for (const bucket of taken) wantedCounts[bucket]! += 1;
  return Math.max(extra, wantedLength - taken.length);
}

const lowerNames = new WeakMap<ToolCatalog, string[]>();

function lowercasedNames(catalog: ToolCatalog): string[] {
  let names = lowerNames.get(catalog);
  if (names === undefined) {
    names = catalog.names().map((name) => name.toLowerCase());
    lowerNames.set(catalog, names);
  }
  return names;
}

/**
 * Up to `max` names of the catalog that the model may have meant: near spellings
 * first (edit distance), then the catalog's own search over the name's words.
 * Only ever names tools of this catalog, so nothing outside the session leaks.
 *
 * @param catalog - the session's catalog
 * @param name - the name the model gave
 * @param max - the most names @defaultValue 3
 * @returns catalog names, best first
 * @throws nothing
 */
export async function suggestNames(catalog: ToolCatalog, name: string, max = 3): Promise<string[]> {
  if (catalog.size === 0 || max <= 0) return [];
  const suggestions: string[] = [];
  const wanted = name.toLowerCase();
  if (wanted.length <= MAX_NAME_FOR_DISTANCE) {
    const bound = Math.max(2, Math.floor(wanted.length / 3));
    const near: { name: string; distance: number; order: number }[] = [];
    const names = catalog.names();
    const wantedCounts = new Int32Array(256);
    for (let index = 0; index < wanted.length; index += 1) {
      wantedCounts[wanted.charCodeAt(index) & 255]! += 1;
    }
    lowercasedNames(catalog).forEach((candidate, order) => {
      if (Math.abs(candidate.length - wanted.length) > bound) return;
      if (countBound(wantedCounts, wanted.length, candidate) > bound) return;
      const distance = boundedDistance(wanted, candidate, bound);
      if (Number.isFinite(distance)) near.push({ name: names[order]!, distance, order });
    });
    near.sort((a, b) => a.distance - b.distance || a.order - b.order);
    for (const entry of near.slice(0, max)) suggestions.push(entry.name);
  }
  if (suggestions.length < max) {
    try {
      const hits = await catalog.search(name.replace(/[_.:/-]+/g, ' '), { limit: max });
      for (const hit of hits) {
        if (suggestions.length >= max) break;
        if (!suggestions.includes(hit.name)) suggestions.push(hit.name);
      }
    } catch {
      // A failing ranker only costs the suggestions.
    }
  }
  return suggestions;
}
