import type { ToolDefinition, ToolList } from '@tool-search/core';
import { countToolsets, type ToolsetCounts, ToolsetCountsMemo } from './toolset-counts.js';

/** A toolset (or server) behind the bridge, as the `tool_search` description lists it. */
export interface SearchableToolset {
  /** Its name, e.g. `mcp-github`: what search answers show as `source_name`. */
  name: string;
  /** How many deferred tools it holds. */
  tools: number;
  /** What it is for; only its first line is shown, cut to 100 characters. */
  description?: string;
}

/** The most toolsets the `tool_search` description lists; the rest are counted. */
export const MAX_LISTED_TOOLSETS = 20;

const LINE_LENGTH = 100;

function oneLine(text: string): string {
  const line = (text.split(/\r?\n/).find((part) => part.trim() !== '') ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > LINE_LENGTH ? `${line.slice(0, LINE_LENGTH - 1)}…` : line;
}

function entryOf(
  name: string,
  tools: number,
  describe: ((toolset: string) => string | undefined) | undefined,
): SearchableToolset {
  const entry: SearchableToolset = { name, tools };
  let description: unknown;
  try {
    description = describe?.(name);
  } catch {
    description = undefined;
  }
  if (typeof description === 'string' && description.trim() !== '') {
    entry.description = description;
  }
  return entry;
}

/**
 * Groups deferred tools by toolset (else source) for the `tool_search` description.
 *
 * @param tools - the deferred tools
 * @param describe - a toolset's description, e.g. from a toolset registry or an MCP
 * server's config; `undefined` for none
 * @returns one entry per toolset, sorted by name, so the same catalog in any order
 * gives the same listing
 * @throws nothing; a `describe` that throws counts as no description
 */
export function summarizeToolsets(
  tools: readonly ToolDefinition[],
  describe?: (toolset: string) => string | undefined,
): SearchableToolset[] {
  const { counts, names } = countToolsets(tools);
  return names.map((name) => entryOf(name, counts.get(name)!, describe));
}

function listingOf(listed: readonly SearchableToolset[], total: number): string {
  if (total === 0) return '';
  const lines = listed.map((toolset) => {
    const count = `${toolset.tools} tool${toolset.tools === 1 ? '' : 's'}`;
    const line = toolset.description === undefined ? '' : oneLine(toolset.description);
    return `\n- ${oneLine(toolset.name)} (${count})${line === '' ? '' : `: ${line}`}`;
  });
  const rest = total - listed.length;
  const more = rest > 0 ? `\n- and ${rest} more toolset${rest === 1 ? '' : 's'}` : '';
  return ` Searchable toolsets:${lines.join('')}${more}`;
}

/**
 * The toolsets paragraph of the `tool_search` description: name, tool count and one
 * line each, at most {@link MAX_LISTED_TOOLSETS}, the rest counted.
 *
 * @param toolsets - in the order to list them
 * @returns the text to append (with a leading space), or `''` for none
 * @throws nothing
 */
export function toolsetListing(toolsets: readonly SearchableToolset[]): string {
  return listingOf(toolsets.slice(0, MAX_LISTED_TOOLSETS), toolsets.length);
}

/**
 * The listings of the deferred lists of one assembly cache: the toolset counts of each
 * list (patched from the last list's for its change), and the last listing of each counts
 * version (one per deferred list, shared by the lists whose counts did not change) with
 * the describe function it was made with. An assembly lists 20 toolsets of perhaps
 * thousands: it asks `describe` for those 20 only, and over an unchanged list (the same
 * counts) with the same function it asks nothing at all.
 *
 * @internal
 */
export class ToolsetListings {
  readonly #counts = new ToolsetCountsMemo();
  readonly #listings = new WeakMap<
    ToolsetCounts,
    { describe: ((toolset: string) => string | undefined) | undefined; text: string }
  >();

  /**
   * `toolsetListing(summarizeToolsets(list.tools, describe))`, without summarizing the
   * toolsets that are not listed, and remembered per counts version and `describe`
   * function: a function that answers differently later must be a new function (or the
   * list change).
   *
   * @param list - the deferred tools
   * @param describe - a toolset's description; `undefined` for none
   * @returns the text to append (with a leading space), or `''` for none
   * @throws nothing; a `describe` that throws counts as no description
   */
  listingOf(list: ToolList, describe?: (toolset: string) => string | undefined): string {
    const counted = this.#counts.countsOf(list);
    const known = this.#listings.get(counted);
    if (known !== undefined && known.describe === describe) return known.text;
    const listed = counted.names
      .slice(0, MAX_LISTED_TOOLSETS)
      .map((name) => entryOf(name, counted.counts.get(name)!, describe));
    const text = listingOf(listed, counted.names.length);
    this.#listings.set(counted, { describe, text });
    return text;
  }
}
