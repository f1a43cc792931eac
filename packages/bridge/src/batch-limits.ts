/** The most queries one `tool_search` call answers (`query` and `queries` together). */
export const MAX_SEARCH_QUERIES = 5;

/**
 * The most names one `tool_describe` call answers (`name` and `names` together), and
 * the most tools one `select:` query of `tool_search` loads: each answer carries a
 * full schema.
 */
export const MAX_DESCRIBE_NAMES = 10;

/** The most calls one `tool_call` runs through `calls`. */
export const MAX_BATCH_CALLS = 10;

/**
 * The error texts of batches and `select:`, one place; each is listed with its code in
 * `docs/guides/errors.md`. (The single-call texts are `bridgeErrors`.)
 */
export const batchErrors = {
  tooManyQueries: (count: number) =>
    `tool_search takes at most ${MAX_SEARCH_QUERIES} queries at once; got ${count}. Search with at most ${MAX_SEARCH_QUERIES}, then the rest in another call.`,
  queriesNotList: "tool_search 'queries' must be an array of strings.",
  tooManyNames: (count: number) =>
    `tool_describe takes at most ${MAX_DESCRIBE_NAMES} names at once; got ${count}. Describe at most ${MAX_DESCRIBE_NAMES}, then the rest in another call.`,
  namesNotList: "tool_describe 'names' must be an array of strings.",
  tooManySelected: (count: number) =>
    `select: loads at most ${MAX_DESCRIBE_NAMES} tools at once; got ${count}. Select at most ${MAX_DESCRIBE_NAMES}, then the rest in another tool_search.`,
  selectEmpty:
    "select: needs at least one exact tool name after it, e.g. 'select:github_create_issue,slack_post_message'.",
  tooManyCalls: (count: number) =>
    `tool_call takes at most ${MAX_BATCH_CALLS} calls at once; got ${count}. Nothing was run: send at most ${MAX_BATCH_CALLS}, then the rest in another tool_call.`,
  callsNotList: "tool_call 'calls' must be an array of { name, arguments } objects.",
  callsEmpty: "tool_call 'calls' is empty. Give at least one { name, arguments }.",
  callFailed: (index: number, detail: string) =>
    `Call ${index + 1} of the batch failed: ${detail}. The other calls were answered on their own.`,
  callsAndName:
    "tool_call takes either 'name' and 'arguments', or 'calls', not both. Nothing was run: put every call in 'calls'.",
} as const;
