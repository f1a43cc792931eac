import type { ToolDefinition } from './types.js';

/**
 * Counts the tokens of a text. Plug in an exact tokenizer (e.g. `gpt-tokenizer`'s
 * `countTokens`) when the default estimate is not close enough.
 */
export interface TokenCounter {
  /** The number of tokens in `text`. Must not throw. */
  count(text: string): number;
}

/**
 * The default counter: `ceil(chars / 4)`. Over compact JSON of English tool schemas
 * it overestimates against o200k (by how much: the benchmarks guide); it can underestimate
 * CJK-heavy schemas.
 */
export const charsPerTokenCounter: TokenCounter = Object.freeze({
  count(text: string): number {
    return Math.ceil(text.length / 4);
  },
});

/**
 * The compact JSON a model is sent for one tool: `{ name, description, parameters }`.
 *
 * @param tool - the tool
 * @returns compact JSON text
 * @throws nothing for JSON-safe schemas; a schema with a cycle or a BigInt throws the `TypeError` of `JSON.stringify`
 */
export function modelFacingJson(tool: ToolDefinition): string {
  return JSON.stringify({
    name: tool.name,
    description: tool.description ?? '',
    parameters: tool.inputSchema,
  });
}

// One memo per counter, each keyed by tool object: both weak, so neither a dropped
// tool nor a dropped counter is kept alive.
const memos = new WeakMap<TokenCounter, WeakMap<ToolDefinition, number>>();

function memoOf(counter: TokenCounter): WeakMap<ToolDefinition, number> {
  let memo = memos.get(counter);
  if (memo === undefined) {
    memo = new WeakMap();
    memos.set(counter, memo);
  }
  return memo;
}

function tokensOf(
  tool: ToolDefinition,
  counter: TokenCounter,
  memo: WeakMap<ToolDefinition, number>,
): number {
  let tokens = memo.get(tool);
  if (tokens === undefined) {
    tokens = counter.count(modelFacingJson(tool));
    memo.set(tool, tokens);
  }
  return tokens;
}

/**
 * Estimates the tokens one tool's definition costs the model on every turn.
 * Memoized per tool object and counter: treat tool objects as immutable (replace a
 * tool to change it), so that estimating an unchanged list every turn is nearly free.
 *
 * @param tool - the tool
 * @param counter - the token counter @defaultValue {@link charsPerTokenCounter}
 * @returns the estimate
 * @throws the `TypeError` of `JSON.stringify` for a schema that is not JSON (a cycle, a BigInt)
 */
export function estimateSingleToolTokens(
  tool: ToolDefinition,
  counter: TokenCounter = charsPerTokenCounter,
): number {
  return tokensOf(tool, counter, memoOf(counter));
}

/**
 * Estimates the tokens a list of tools costs the model on every turn: the sum of
 * {@link estimateSingleToolTokens} over compact JSON of each model-facing
 * `{ name, description, parameters }`.
 *
 * @example
 * ```ts
 * const tokens = estimateToolTokens(tools); // chars / 4
 * ```
 *
 * @param tools - the tools
 * @param counter - the token counter @defaultValue {@link charsPerTokenCounter}
 * @returns the total estimate
 * @throws the `TypeError` of `JSON.stringify` for a schema that is not JSON (a cycle, a BigInt)
 */
export function estimateToolTokens(
  tools: readonly ToolDefinition[],
  counter: TokenCounter = charsPerTokenCounter,
): number {
  const memo = memoOf(counter);
  let total = 0;
  for (const tool of tools) total += tokensOf(tool, counter, memo);
  return total;
}
