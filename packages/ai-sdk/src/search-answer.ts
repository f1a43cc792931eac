import { isRecord } from '@tool-search/core/internal';

/** The longest description a search hit carries here: a line, as `tool_search` promises. */
export const SHORT_DESCRIPTION_LENGTH = 160;

/**
 * A description cut to its first sentence, at most `SHORT_DESCRIPTION_LENGTH`
 * characters (with `…` when cut inside it): `tool_describe` gives the whole.
 *
 * @param text - a tool's description
 * @returns the short form
 * @throws nothing
 */
export function shortDescription(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const end = flat.search(/[.!?](\s|$)/);
  const sentence = end === -1 ? flat : flat.slice(0, end + 1);
  if (sentence.length <= SHORT_DESCRIPTION_LENGTH) return sentence;
  return `${sentence.slice(0, SHORT_DESCRIPTION_LENGTH - 1).trimEnd()}…`;
}

// One hit without what says nothing about an AI SDK tool: its source (`plugin` for every
// tool of a tool set) and a `source_name` that only repeats it; a toolset stays.
function compactMatch(match: unknown): unknown {
  if (!isRecord(match)) return match;
  const { source, source_name: sourceName, description, ...rest } = match;
  const out: Record<string, unknown> = { ...rest };
  if (typeof description === 'string') out['description'] = shortDescription(description);
  if (typeof sourceName === 'string' && sourceName !== source) out['toolset'] = sourceName;
  return out;
}

function compactOne(answer: unknown): unknown {
  if (!isRecord(answer) || !Array.isArray(answer['matches'])) return answer;
  return { ...answer, matches: answer['matches'].map(compactMatch) };
}

/**
 * A `tool_search` answer as the AI SDK adapter gives it to the model: each hit's name,
 * a one-line description and its toolset when it has one (no `source`/`source_name`
 * noise); a batch (`{ results }`) hit by hit; anything else (an error) as it is.
 *
 * @param answer - the bridge's answer
 * @returns the compact answer
 * @throws nothing
 */
export function compactSearchAnswer(answer: unknown): unknown {
  if (isRecord(answer) && Array.isArray(answer['results'])) {
    return { ...answer, results: answer['results'].map(compactOne) };
  }
  return compactOne(answer);
}
