import { isBridgeToolName } from '@tool-search/core/internal';
import type { Assembly } from './assemble.js';
import { batchErrors, MAX_DESCRIBE_NAMES } from './batch-limits.js';
import type { SelectMiss, ToolSearchMatch } from './bridge-results.js';
import type { BridgeErrorCode } from './errors.js';
import { echoName, nameError, nameStatus } from './resolve.js';
import { exactTool, toMatch } from './search-match.js';

export type { SelectMiss } from './bridge-results.js';

const SELECT_PREFIX = /^select:/i;

/** What a `select:` query loads. */
export type SelectAnswer =
  | { ok: true; matches: ToolSearchMatch[]; notFound: SelectMiss[] }
  | { ok: false; error: string; code: BridgeErrorCode };

/**
 * The names of a `select:name_a,name_b` query (Claude Code's convention for loading
 * tools by their exact names): split at commas, trimmed, blanks and repeats dropped.
 *
 * @param query - a trimmed `tool_search` query
 * @returns the names, possibly none; `undefined` when the query does not start with
 * `select:` (any case)
 * @throws nothing
 */
export function selectedNames(query: string): string[] | undefined {
  if (!SELECT_PREFIX.test(query)) return undefined;
  const names: string[] = [];
  for (const part of query.replace(SELECT_PREFIX, '').split(',')) {
    const name = part.trim();
    if (name !== '' && !names.includes(name)) names.push(name);
  }
  return names;
}

/**
 * Loads the tools a `select:` query names: each deferred one as a match with its full
 * schema in `parameters`, in the order given; each other name with the contract's
 * reason. A name matches exactly, or ignoring case when only one tool fits.
 *
 * @param assembly - the session's current assembly
 * @param names - from {@link selectedNames}
 * @returns the matches and misses, or a refusal when no name or more than
 * {@link MAX_DESCRIBE_NAMES} names are given
 * @throws nothing
 */
export function selectTools(assembly: Assembly, names: readonly string[]): SelectAnswer {
  if (names.length === 0)
    return { ok: false, error: batchErrors.selectEmpty, code: 'select_empty' };
  if (names.length > MAX_DESCRIBE_NAMES) {
    return {
      ok: false,
      error: batchErrors.tooManySelected(names.length),
      code: 'too_many_selected',
    };
  }
  const matches: ToolSearchMatch[] = [];
  const notFound: SelectMiss[] = [];
  for (const name of names) {
    const tool = isBridgeToolName(name) ? undefined : exactTool(assembly, name);
    if (tool === undefined) {
      const status = isBridgeToolName(name) ? 'visible' : nameStatus(assembly, name);
      const reason = status === 'deferred' ? 'unknown' : status;
      const { error, code } = nameError(reason, name);
      notFound.push({ name: echoName(name), error, code });
    } else if (!matches.some((match) => match.name === tool.name)) {
      matches.push({ ...toMatch(tool), parameters: tool.inputSchema });
    }
  }
  return { ok: true, matches, notFound };
}
