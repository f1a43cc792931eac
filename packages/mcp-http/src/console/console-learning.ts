import type { LearningExport } from '@tool-search/core';
import type { ConsoleToolsView } from './console-tools.js';

/** The most learned terms the Tools page shows per tool and profile (heaviest first). */
const TERMS_SHOWN = 12;

/**
 * Puts each tool's learned terms (per profile, heaviest first, counts rounded to two
 * places) on the Tools page's view.
 *
 * @param view - the view (changed)
 * @param learned - what the learner holds, for every profile
 * @throws nothing
 */
export function attachLearnedTerms(view: ConsoleToolsView, learned: LearningExport): void {
  const byTool = new Map<string, { profile: string; terms: Record<string, number> }[]>();
  for (const [profile, tools] of Object.entries(learned.profiles)) {
    for (const [tool, terms] of Object.entries(tools)) {
      const top = Object.entries(terms)
        .sort((a, b) => b[1] - a[1])
        .slice(0, TERMS_SHOWN)
        .map(([term, count]) => [term, Math.round(count * 100) / 100] as const);
      const list = byTool.get(tool) ?? [];
      list.push({ profile, terms: Object.fromEntries(top) });
      byTool.set(tool, list);
    }
  }
  for (const tool of view.tools) {
    const entries = tool.loading === 'held' ? undefined : byTool.get(tool.name);
    if (entries !== undefined) tool.learned = entries;
  }
}
