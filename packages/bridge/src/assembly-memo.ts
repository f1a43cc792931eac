// The list-wide work of an assembly (the duplicate-name check, the classification, the
// token estimate of the deferrable tools), memoized for the last few lists by content:
// the tool objects in order, the pins and the token counter. Most turns assemble the
// list the turn before had; at 100,000 tools a set of every name and a memo lookup per
// tool cost about as much as everything else of the assembly together, while comparing
// the list with a remembered one is a pass of identity checks (one pass per assembly:
// its result, the positions that changed, serves everything after it). Never keyed by session:
// two sessions with the same tools share an entry, and no entry outlives a few newer lists.

import type { TokenCounter, ToolDefinition } from '@tool-search/core';
import {
  classifyTools,
  createCatalog,
  estimateSingleToolTokens,
  ToolSearchError,
} from '@tool-search/core';
import { patchCatalogList, recordListChange } from '@tool-search/core/internal';

/** What an assembly derives from its whole input list, before the activation decision. */
export interface ListWork {
  /** The tools the model always sees, in input order. */
  readonly visible: readonly ToolDefinition[];
  /**
   * The deferrable tools, in input order; frozen, so that a catalog can take the array
   * as its own list (and find its own state for it again) instead of copying it.
   */
  readonly deferrable: readonly ToolDefinition[];
  /** The estimated tokens of {@link ListWork.deferrable}. */
  readonly deferredTokens: number;
}

interface Entry extends ListWork {
  /** The input list as it was (the deferrable array itself when every tool is deferrable). */
  readonly input: readonly ToolDefinition[];
  readonly pins: string;
  readonly counter: TokenCounter;
}

/** How many lists are remembered: a few sessions of different scopes, or a changed list beside the last. */
const RECENT_LISTS = 4;
const recent: Entry[] = [];

/** A list differing from a remembered one in more than this share of positions is worked anew. */
const PATCH_SHARE = 1 / 16;

function sameTools(a: readonly ToolDefinition[], b: readonly ToolDefinition[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return false;
  return true;
}

/** The positions where `b` differs from `a` (same length), or undefined past `limit` of them. */
function differences(
  a: readonly ToolDefinition[],
  b: readonly ToolDefinition[],
  limit: number,
): number[] | undefined {
  const changed: number[] = [];
  for (let index = 0; index < b.length; index += 1) {
    if (a[index] === b[index]) continue;
    if (changed.length === limit) return undefined;
    changed.push(index);
  }
  return changed;
}

/**
 * A key of a set of pinned names, the same whatever their order or repeats.
 *
 * @param pinned - the pinned names, or undefined
 * @returns the key ('' for none)
 * @throws nothing
 */
export function pinsKey(pinned: readonly string[] | undefined): string {
  if (pinned === undefined || pinned.length === 0) return '';
  return [...new Set(pinned)].sort().join('\u0000');
}

/**
 * The list-wide work of an assembly over `input`: remembered when the same tool objects
 * came in the same order with the same pins and counter, patched from a remembered list
 * when only a few tools were replaced in place, else computed (and remembered unless it
 * throws). Tool objects are treated as immutable, as everywhere in tool search.
 *
 * One pass over the input finds both: it is compared with the first remembered list that
 * can be patched (the session's last list, usually), and the positions where they differ
 * are the whole change; the other remembered lists are only checked for being the same
 * list, which stops at their first difference. The change is handed on (to the catalog's
 * name map and the toolset counts), so nothing compares the lists again.
 *
 * @param input - the session's tools
 * @param pins - {@link pinsKey} of the pinned names
 * @param pinned - the pinned names (the same as `pins`)
 * @param counter - the token counter
 * @param compute - the work itself; what it throws is thrown and nothing is remembered
 * @param duplicate - the error for a name that two tools share
 * @returns the work, `deferrable` frozen
 * @throws what `compute` throws, or `duplicate`'s error
 */
export function listWorkOf(
  input: readonly ToolDefinition[],
  pins: string,
  pinned: readonly string[] | undefined,
  counter: TokenCounter,
  compute: () => {
    visible: readonly ToolDefinition[];
    deferrable: ToolDefinition[];
    deferredTokens: number;
  },
  duplicate: (name: string) => Error,
): ListWork {
  const limit = Math.floor(input.length * PATCH_SHARE);
  let closest: Entry | undefined;
  let changed: number[] | undefined;
  for (let index = 0; index < recent.length; index += 1) {
    const entry = recent[index]!;
    if (entry.counter !== counter || entry.pins !== pins) continue;
    if (entry.input.length !== input.length) continue;
    let same: boolean;
    // Only a list of deferrable tools alone is patched (a visible one changes the shape).
    if (closest === undefined && entry.input === entry.deferrable) {
      const found = differences(entry.input, input, limit);
      if (found !== undefined && found.length > 0) {
        closest = entry;
        changed = found;
      }
      same = found !== undefined && found.length === 0;
    } else {
      same = sameTools(entry.input, input);
    }
    if (!same) continue;
    if (index > 0) {
      recent.splice(index, 1);
      recent.unshift(entry);
    }
    return entry;
  }
  const work =
    (closest === undefined || changed === undefined
      ? undefined
      : patchedWork(closest, changed, input, pinned, counter, duplicate)) ?? compute();
  const deferrable = Object.isFrozen(work.deferrable)
    ? work.deferrable
    : Object.freeze(work.deferrable);
  const entry: Entry = {
    visible: work.visible,
    deferrable,
    deferredTokens: work.deferredTokens,
    // One array for both when nothing stays visible (the usual catalog of a gateway).
    input: deferrable.length === input.length ? deferrable : [...input],
    pins,
    counter,
  };
  recent.unshift(entry);
  if (recent.length > RECENT_LISTS) recent.pop();
  return entry;
}

/**
 * The work of a list that differs from a remembered one (every tool deferrable, the same
 * length, pins and counter) at the positions `changed`, from that one's work: the
 * replaced tools are classified and estimated, the catalog's name map of the remembered
 * list is patched for them (see `patchCatalogList`), and the change is recorded for the
 * toolset counts. Undefined when a replacement would stay visible.
 */
function patchedWork(
  entry: Entry,
  changed: readonly number[],
  input: readonly ToolDefinition[],
  pinned: readonly string[] | undefined,
  counter: TokenCounter,
  duplicate: (name: string) => Error,
): ListWork | undefined {
  const old = entry.input;
  const arrived = changed.map((index) => input[index]!);
  // A bridge tool or a tool that stays visible changes the shape: the whole work again.
  const { deferrable } = classifyTools(arrived, pinned === undefined ? {} : { pinned });
  if (deferrable.length !== arrived.length) return undefined;
  let tokens = entry.deferredTokens;
  for (const index of changed) {
    tokens += estimateSingleToolTokens(input[index]!, counter);
    tokens -= estimateSingleToolTokens(old[index]!, counter);
  }
  // A counter of fractions would sum in another order than a fresh estimate.
  if (!Number.isSafeInteger(tokens) || !Number.isSafeInteger(entry.deferredTokens)) {
    return undefined;
  }
  const list = Object.freeze([...input]);
  try {
    // This list's names, patched from the last list's for the change alone (or, when that
    // one has no catalog yet, mapped by createCatalog its own way).
    if (!patchCatalogList(old, list, changed)) createCatalog(list);
  } catch (error) {
    if (ToolSearchError.isInstance(error) && error.code === 'duplicate_tool_name') {
      throw duplicate(String(error.data?.['tool']));
    }
    throw error;
  }
  recordListChange(list, old, changed);
  return { visible: entry.visible, deferrable: list, deferredTokens: tokens };
}
