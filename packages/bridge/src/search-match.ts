import type { ToolDefinition } from '@tool-search/core';
import { SEARCH_HIT_DESCRIPTION_LENGTH } from '@tool-search/core/internal';
import type { Assembly } from './assemble.js';
import type { ToolSearchMatch } from './bridge-results.js';
import { sourceName } from './source-name.js';

export type { ToolSearchMatch } from './bridge-results.js';
export { sourceName } from './source-name.js';

/**
 * A tool as one match of a `tool_search` answer.
 *
 * @param tool - a deferred tool
 * @returns its name, source, toolset and description cut to 400 characters
 * @throws nothing
 */
export function toMatch(tool: ToolDefinition): ToolSearchMatch {
  return {
    name: tool.name,
    source: tool.source ?? 'other',
    source_name: sourceName(tool),
    description: (tool.description ?? '').slice(0, SEARCH_HIT_DESCRIPTION_LENGTH),
  };
}

/**
 * The deferred tool a text names exactly: its exact name, or (for a text without
 * whitespace) the one tool whose name matches it ignoring case.
 *
 * @param assembly - the session's current assembly
 * @param text - a trimmed query or name
 * @returns the tool, or `undefined` when no tool (or more than one, ignoring case) fits
 * @throws nothing
 */
export function exactTool(assembly: Assembly, text: string): ToolDefinition | undefined {
  const exact = assembly.catalog.get(text);
  if (exact || /\s/.test(text)) return exact;
  const lower = text.toLowerCase();
  const folded = assembly.catalog.tools().filter((tool) => tool.name.toLowerCase() === lower);
  return folded.length === 1 ? folded[0] : undefined;
}
