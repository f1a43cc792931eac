import type { ToolCatalog } from '@tool-search/core';

const MAX_NAME_FOR_DISTANCE = 200;

// Levenshtein distance, or Infinity as soon as it must exceed `bound`.
function boundedDistance(a: string, b: string, bound: number): number {
  if (Math.abs(a.length - b.length) > bound) return Number.POSITIVE_INFINITY;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      current.push(value);
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > bound) return Number.POSITIVE_INFINITY;
    previous = current;
  }
  const distance = previous[b.length]!;
  return distance > bound ? Number.POSITIVE_INFINITY : distance;
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
    catalog.names().forEach((candidate, order) => {
      const distance = boundedDistance(wanted, candidate.toLowerCase(), bound);
      if (Number.isFinite(distance)) near.push({ name: candidate, distance, order });
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
