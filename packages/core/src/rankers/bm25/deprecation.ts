// A tool whose own description says it is deprecated ("DEPRECATED: Use read_text_file
// instead.", "[Deprecated] ...", "This tool is deprecated") ranks below its replacement:
// the default preset multiplies its score by `deprecatedWeight`, and keeps it below a
// tool its description names (the replacement) whenever that one scores. Only the
// tool's own description counts, and only a phrase that says the tool itself is
// deprecated: "Check if packages are deprecated" or "This parameter is deprecated" do not.

import type { ToolDefinition } from '../../types.js';

/** How much of a description is read for the marker. */
const SCANNED = 2_000;

const MARKERS: readonly RegExp[] = [
  // Opens with it: "Deprecated. ...", "[DEPRECATED] ...", "(deprecated) ...", "@deprecated".
  /^[\s*_>#-]*[[(]?@?deprecated\b/i,
  // A marker anywhere: "... DEPRECATED: use X", "... (deprecated)", "... [deprecated]".
  /(?:^|[\s([])@?deprecated\s*(?::|\)|\]|!|\s[-–—]\s)/i,
  // A sentence about the tool: "This tool is deprecated", "The endpoint has been deprecated".
  /\b(?:this|the)\s+(?:tool|function|method|endpoint|command|api|operation|action)\s+(?:is\s+|has\s+been\s+|was\s+)?(?:now\s+)?deprecated\b/i,
  /\bdeprecated\s+in\s+favou?r\s+of\b/i,
];
// Every marker holds the word: a description without it (nearly all) is read once, not
// once per marker.
const WORD = /deprecated/i;

/**
 * Whether a tool's own description says the tool is deprecated.
 *
 * @param tool - the tool
 * @returns true when its description carries a deprecation marker
 * @throws nothing
 * @internal
 */
export function isDeprecatedTool(tool: Pick<ToolDefinition, 'description'>): boolean {
  const description = tool.description;
  if (typeof description !== 'string' || description.length === 0) return false;
  const text = description.slice(0, SCANNED);
  return WORD.test(text) && MARKERS.some((marker) => marker.test(text));
}

/** What a tool's description says of its deprecation. */
export interface Deprecation {
  deprecated: boolean;
  /** Identifier-like words of the description (`read_text_file`): candidate replacements. */
  mentions: readonly string[];
}

const NOT_DEPRECATED: Deprecation = Object.freeze({ deprecated: false, mentions: [] });
const IDENTIFIER = /[A-Za-z][A-Za-z0-9]*(?:[_.:-][A-Za-z0-9]+)+/g;
// Per tool object: an index patched for a change reads only the tools that arrive.
const memo = new WeakMap<object, Deprecation>();

/**
 * What a tool's description says of its deprecation, read once per tool object.
 *
 * @param tool - the tool
 * @returns whether it is deprecated, and the identifiers its description names
 * @throws nothing
 * @internal
 */
export function deprecationOf(tool: ToolDefinition): Deprecation {
  const known = memo.get(tool);
  if (known !== undefined) return known;
  let found = NOT_DEPRECATED;
  if (isDeprecatedTool(tool)) {
    const text = (tool.description ?? '').slice(0, SCANNED);
    found = { deprecated: true, mentions: [...new Set(text.match(IDENTIFIER) ?? [])] };
  }
  memo.set(tool, found);
  return found;
}
