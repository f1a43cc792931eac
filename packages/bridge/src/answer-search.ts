import type { SearchHit, ToolSearchConfig } from '@tool-search/core';
import { DEFAULT_TOOL_SEARCH_CONFIG, MAX_QUERY_LENGTH } from '@tool-search/core';
import { describeError, learningOf, ownValue } from '@tool-search/core/internal';
import type { Assembly } from './assemble.js';
import type { BridgeErrorResult, ToolSearchResult } from './bridge-results.js';
import { bridgeErrors } from './resolve.js';
import type { ToolSearchMatch } from './search-match.js';
import { exactTool, sourceName, toMatch } from './search-match.js';
import { selectedNames, selectTools } from './select.js';
import { bump } from './telemetry.js';

const MAX_LISTED_TOOLSETS = 20;

function searchLimit(raw: unknown, config: ToolSearchConfig): number {
  const fallback = config.searchDefaultLimit;
  let value: number;
  if (typeof raw === 'number') value = raw;
  else if (typeof raw === 'string' && raw.trim() !== '') value = Number(raw.trim());
  else return fallback;
  if (!Number.isFinite(value)) return fallback;
  return Math.min(config.maxSearchLimit, Math.max(1, Math.floor(value)));
}

// The model wrote the query: echoing all of a long one back only costs it context.
const QUERY_ECHO_LENGTH = 500;

function echo(query: string): string {
  return query.length > QUERY_ECHO_LENGTH ? `${query.slice(0, QUERY_ECHO_LENGTH)}…` : query;
}

function noMatchMessage(assembly: Assembly, query: string): string {
  if (assembly.catalog.size === 0) {
    return 'No tools are available through tool_search in this session. Call the tools in your tools list directly.';
  }
  const toolsets: string[] = [];
  const seen = new Set<string>();
  for (const tool of assembly.catalog.tools()) {
    const name = sourceName(tool);
    if (!seen.has(name)) {
      seen.add(name);
      toolsets.push(name);
    }
  }
  const listed = toolsets.slice(0, MAX_LISTED_TOOLSETS).join(', ');
  const more =
    toolsets.length > MAX_LISTED_TOOLSETS
      ? ` and ${toolsets.length - MAX_LISTED_TOOLSETS} more`
      : '';
  const shown = query.length > 200 ? `${query.slice(0, 200)}…` : query;
  return (
    `No tools matched '${shown}'. Try broader or different words (what you want to do, ` +
    `e.g. 'create issue', or a service name), or fewer words. Searchable toolsets: ${listed}${more}.`
  );
}

/**
 * Answers `tool_search` (a `select:` query included).
 *
 * @param assembly - the session's assembly
 * @param args - the call's arguments
 * @returns the matches, or a refusal as data
 * @throws nothing
 */
export async function answerSearch(
  assembly: Assembly,
  args: Record<string, unknown> | undefined,
): Promise<ToolSearchResult | BridgeErrorResult> {
  bump(assembly, 'searches');
  const query = ownValue(args, 'query');
  if (typeof query !== 'string' || query.trim() === '') {
    bump(assembly, 'errors');
    return { error: bridgeErrors.queryRequired, code: 'query_required' };
  }
  const text = query.trim().slice(0, MAX_QUERY_LENGTH);
  // A tool whose own name starts with 'select:' is still found by that name.
  const selected = assembly.catalog.has(text) ? undefined : selectedNames(text);
  if (selected !== undefined) return answerSelect(assembly, text, selected);
  const config = assembly.config ?? DEFAULT_TOOL_SEARCH_CONFIG;
  const limit = searchLimit(ownValue(args, 'limit'), config);
  let hits: SearchHit[];
  try {
    hits = await assembly.catalog.search(text, { limit });
  } catch (error) {
    bump(assembly, 'errors');
    return {
      error: `tool_search failed: ${describeError(error)}. Try again with other words, or call tool_describe with an exact tool name.`,
      code: 'search_failed',
    };
  }
  const matches: ToolSearchMatch[] = [];
  const exact = exactTool(assembly, text);
  if (exact) matches.push(toMatch(exact));
  for (const hit of hits) {
    if (matches.length >= limit) break;
    const tool = assembly.catalog.get(hit.name);
    if (tool && tool !== exact) matches.push(toMatch(tool));
  }
  const result: ToolSearchResult = {
    query: echo(text),
    total_available: assembly.catalog.size,
    matches,
  };
  if (matches.length === 0) {
    bump(assembly, 'misses');
    result.message = noMatchMessage(assembly, echo(text));
  }
  learningOf(assembly)?.noteSearch(
    text,
    matches.map((match) => match.name),
  );
  return result;
}

function answerSelect(
  assembly: Assembly,
  text: string,
  names: readonly string[],
): ToolSearchResult | BridgeErrorResult {
  const selected = selectTools(assembly, names);
  if (!selected.ok) {
    bump(assembly, 'errors');
    return { error: selected.error, code: selected.code };
  }
  const result: ToolSearchResult = {
    query: echo(text),
    total_available: assembly.catalog.size,
    matches: selected.matches,
  };
  if (selected.notFound.length > 0) result.not_found = selected.notFound;
  if (selected.matches.length === 0) {
    bump(assembly, 'misses');
    result.message = noMatchMessage(assembly, echo(text));
  }
  return result;
}
