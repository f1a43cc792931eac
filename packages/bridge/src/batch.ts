import { ownValue } from '@tool-search/core/internal';
import {
  batchErrors,
  MAX_BATCH_CALLS,
  MAX_DESCRIBE_NAMES,
  MAX_SEARCH_QUERIES,
} from './batch-limits.js';

import type { BridgeBatchResult } from './bridge-results.js';
import type { BridgeErrorCode } from './errors.js';
import { parseArguments } from './resolve.js';

export type { BridgeBatchResult } from './bridge-results.js';

/**
 * How a bridge call is to be answered: as one call (the batch field is absent or
 * `null`), as a batch of items, or refused as a whole (nothing answered, nothing run).
 */
export type BatchPlan =
  | { kind: 'single' }
  | { kind: 'batch'; items: unknown[] }
  | { kind: 'refused'; error: string; code: BridgeErrorCode };

// `null` is what a strict-mode model sends for a field it does not use.
function isAbsent(value: unknown): boolean {
  return value === undefined || value === null;
}

function isBlank(value: unknown): boolean {
  return isAbsent(value) || (typeof value === 'string' && value.trim() === '');
}

// A list as the model sent it: an array, or (like `arguments`) an array in JSON text.
function readList(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (typeof value !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

// Reads never run anything, so the single field joins the list: the model asked for both.
function planReads(
  single: unknown,
  list: unknown,
  max: number,
  errors: {
    notList: string;
    notListCode: BridgeErrorCode;
    tooMany: (count: number) => string;
    tooManyCode: BridgeErrorCode;
  },
): BatchPlan {
  if (isAbsent(list)) return { kind: 'single' };
  const items = readList(list);
  if (items === undefined)
    return { kind: 'refused', error: errors.notList, code: errors.notListCode };
  const all = isBlank(single) ? items : [single, ...items];
  // An empty list with no single value: the single path says what is required.
  if (all.length === 0) return { kind: 'single' };
  if (all.length > max) {
    return { kind: 'refused', error: errors.tooMany(all.length), code: errors.tooManyCode };
  }
  return { kind: 'batch', items: all };
}

/**
 * Plans a `tool_search` call: `queries` (with `query` first when both are given), at
 * most {@link MAX_SEARCH_QUERIES}.
 *
 * @param args - the parsed arguments of `tool_search`, or `undefined`
 * @returns the plan; `single` when `queries` is absent, `null` or empty
 * @throws nothing
 */
export function planSearch(args: Record<string, unknown> | undefined): BatchPlan {
  return planReads(ownValue(args, 'query'), ownValue(args, 'queries'), MAX_SEARCH_QUERIES, {
    notList: batchErrors.queriesNotList,
    notListCode: 'queries_not_list',
    tooMany: batchErrors.tooManyQueries,
    tooManyCode: 'too_many_queries',
  });
}

/**
 * Plans a `tool_describe` call: `names` (with `name` first when both are given), at
 * most {@link MAX_DESCRIBE_NAMES}.
 *
 * @param args - the parsed arguments of `tool_describe`, or `undefined`
 * @returns the plan; `single` when `names` is absent, `null` or empty
 * @throws nothing
 */
export function planDescribe(args: Record<string, unknown> | undefined): BatchPlan {
  return planReads(ownValue(args, 'name'), ownValue(args, 'names'), MAX_DESCRIBE_NAMES, {
    notList: batchErrors.namesNotList,
    notListCode: 'names_not_list',
    tooMany: batchErrors.tooManyNames,
    tooManyCode: 'too_many_names',
  });
}

/**
 * Plans a `tool_call` call: `calls`, at most {@link MAX_BATCH_CALLS}. Unlike the reads,
 * a call with both `name` and `calls` is refused whole: it could run a tool the model
 * did not mean to run, or one twice.
 *
 * @param rawArguments - the `arguments` of the `tool_call` call, as the model sent them
 * @returns the plan; `single` when `calls` is absent or `null` (and when the arguments
 * do not parse: the single path answers that with the contract's text)
 * @throws nothing
 */
export function planCalls(rawArguments: unknown): BatchPlan {
  const parsed = parseArguments(rawArguments);
  if (!parsed.ok) return { kind: 'single' };
  const list = ownValue(parsed.value, 'calls');
  if (isAbsent(list)) return { kind: 'single' };
  if (!isBlank(ownValue(parsed.value, 'name'))) {
    return { kind: 'refused', error: batchErrors.callsAndName, code: 'calls_and_name' };
  }
  const items = readList(list);
  if (items === undefined) {
    return { kind: 'refused', error: batchErrors.callsNotList, code: 'calls_not_list' };
  }
  if (items.length === 0) {
    return { kind: 'refused', error: batchErrors.callsEmpty, code: 'calls_empty' };
  }
  if (items.length > MAX_BATCH_CALLS) {
    return {
      kind: 'refused',
      error: batchErrors.tooManyCalls(items.length),
      code: 'too_many_calls',
    };
  }
  return { kind: 'batch', items };
}

/**
 * Answers the items of a batch one after the other, in order: each waits for the one
 * before, so approvals are asked in the model's order and a call sees the effects of
 * the calls before it. An item's refusal is its answer; it does not stop the others.
 *
 * @param items - the batch's items
 * @param answer - answers one item through the single-call path
 * @returns `{ results }`, one answer per item, in order
 * @throws nothing itself; rejects when `answer` does
 */
export async function answerInOrder<T>(
  items: readonly unknown[],
  answer: (item: unknown, index: number) => Promise<T>,
): Promise<BridgeBatchResult<T>> {
  const results: T[] = [];
  for (let index = 0; index < items.length; index += 1) {
    results.push(await answer(items[index], index));
  }
  return { results };
}
