import { ToolSearchError } from '@tool-search/core';
import { isRecord } from '@tool-search/core/internal';
import type { ToolCallHook } from './types.js';

/** Options of {@link createResultTruncationHook}. */
export interface ResultTruncationHookOptions {
  /** @defaultValue `'result-truncation'` */
  name?: string;
}

function cut(text: string, keep: number): string {
  // Never split a surrogate pair.
  const end = keep > 0 && /[\uD800-\uDBFF]/.test(text.charAt(keep - 1)) ? keep - 1 : keep;
  return `${text.slice(0, end)}\n… [truncated: showing ${end} of ${text.length} characters]`;
}

/**
 * Creates an `afterCall` hook that keeps results within `maxChars` characters, and
 * says so in a note the model can read (`… [truncated: showing 20000 of 73514
 * characters]`) after the kept text:
 *
 * - a string result is cut;
 * - an MCP `CallToolResult` (`{ content: [...] }`) keeps its shape: its text blocks
 *   share the budget in order, later text blocks are cut or emptied; other blocks
 *   (images, resources) are left as they are;
 * - any other value whose JSON is longer becomes the cut JSON text.
 *
 * The result is never mutated; a shortened copy replaces it.
 *
 * @param maxChars - the most characters kept
 * @param options.name - the hook's name in warnings
 * @returns a {@link ToolCallHook}
 * @throws `ToolSearchError` `invalid_argument` when `maxChars` is not a positive integer
 *
 * @example
 * ```ts
 * const dispatch = createDispatcher({ execute, hooks: [createResultTruncationHook(20_000)] });
 * ```
 */
export function createResultTruncationHook(
  maxChars: number,
  options: ResultTruncationHookOptions = {},
): ToolCallHook {
  if (!Number.isInteger(maxChars) || maxChars < 1) {
    throw new ToolSearchError(
      'invalid_argument',
      `createResultTruncationHook: maxChars must be a positive integer, got ${String(maxChars)}.`,
    );
  }
  return {
    name: options.name ?? 'result-truncation',
    afterCall(_call, result) {
      if (typeof result === 'string') {
        return result.length > maxChars ? { result: cut(result, maxChars) } : undefined;
      }
      if (isRecord(result) && Array.isArray(result.content)) {
        let budget = maxChars;
        let changed = false;
        const content = result.content.map((block: unknown) => {
          if (!isRecord(block) || block.type !== 'text' || typeof block.text !== 'string') {
            return block;
          }
          const { text } = block;
          if (text.length <= budget) {
            budget -= text.length;
            return block;
          }
          changed = true;
          const kept = cut(text, budget);
          budget = 0;
          return { ...block, text: kept };
        });
        return changed ? { result: { ...result, content } } : undefined;
      }
      if (result === undefined || typeof result === 'function' || typeof result === 'symbol') {
        return undefined;
      }
      let json: string | undefined;
      try {
        json = JSON.stringify(result);
      } catch {
        return undefined;
      }
      return json !== undefined && json.length > maxChars
        ? { result: cut(json, maxChars) }
        : undefined;
    },
  };
}
