import type { ToolCall } from '@tool-search/core';
import { ToolSearchError } from '@tool-search/core';
import { type ArgumentCut, count, renderArguments, shownName } from './approval-text.js';
import type { ApprovalAnswer } from './types.js';

/**
 * The most characters of arguments an approval question shows, when the adapter is
 * given no `maxArgumentChars`: 4000, counted in the rendered text (escapes and markers
 * included). Arguments that render longer are not shown silently shortened: see
 * {@link ApprovalOversize}.
 */
export const DEFAULT_APPROVAL_ARGUMENT_CHARS = 4000;

/**
 * What an approval adapter does with arguments too long to show whole: `'deny'` (the
 * default) denies the call without asking, with a reason naming each field that would
 * be cut and by how much; `'ask'` asks with the cut question, which says the same.
 */
export type ApprovalOversize = 'deny' | 'ask';

/** Options of {@link renderApprovalQuestion}. */
export interface ApprovalQuestionOptions {
  /**
   * The most characters of rendered arguments the question shows.
   * @defaultValue {@link DEFAULT_APPROVAL_ARGUMENT_CHARS} (4000)
   */
  maxArgumentChars?: number;
  /** What happens above that size. @defaultValue `'deny'` */
  oversize?: ApprovalOversize;
}

/** What a person is shown about one call: see {@link renderApprovalQuestion}. */
export interface ApprovalQuestion {
  /** The tool name, escaped as the arguments are. */
  tool: string;
  /** The arguments as JSON, whole, or with each cut marked `⟨N characters cut⟩`. */
  arguments: string;
  /** The fields not shown whole; empty when the arguments are shown whole. */
  cuts: ArgumentCut[];
  /** One sentence naming each cut field and how much of it is left out; absent when whole. */
  notice?: string;
  /**
   * Present when the arguments are over the size and `oversize` is `'deny'`: the adapter
   * answers it without asking anyone.
   */
  denial?: ApprovalAnswer & { decision: 'deny' };
}

/**
 * Renders what a person is asked about one call, the same way for every approval
 * adapter (terminal, MCP elicitation, your own UI through {@link createCallbackApproval}):
 *
 * - the arguments whole, as the JSON the tool will receive, up to `maxArgumentChars`
 *   rendered characters;
 * - control characters, bidi controls (U+202E and the rest), zero-width and other
 *   invisible characters and Unicode spaces other than the plain space escaped
 *   (`\u202e`, `\x9b`, `\u00a0`), so that nothing in the text can reorder or hide
 *   another part of it;
 * - a run of three or more spaces (or of one escaped character) shown by its length,
 *   `⟨600 spaces⟩`, so that what follows a run is in view. A `⟨` or `⟩` of the
 *   arguments is escaped, so a marker can only come from the renderer;
 * - above the size, the longest strings are cut first, each cut marked in place with
 *   `⟨N characters cut⟩` and listed in `cuts` and `notice` (which field, by how much
 *   of its length). With `oversize: 'deny'` (the default), `denial` is set and the
 *   adapter denies without asking: a question is never silently shortened.
 *
 * @param call - the call as it will run
 * @param options.maxArgumentChars - the most rendered characters of arguments shown
 * @defaultValue 4000 ({@link DEFAULT_APPROVAL_ARGUMENT_CHARS})
 * @param options.oversize - what happens above that size @defaultValue `'deny'`
 * @returns the question's parts
 * @throws `ToolSearchError` `invalid_argument` when `maxArgumentChars` is not a positive
 * integer or `oversize` is not `'deny'` or `'ask'`; never for any arguments
 *
 * @example
 * ```ts
 * const question = renderApprovalQuestion(request.call);
 * if (question.denial) return question.denial;
 * const yes = await ui.confirm(`Run ${question.tool} with ${question.arguments}?`);
 * ```
 */
export function renderApprovalQuestion(
  call: Pick<ToolCall, 'name' | 'arguments'>,
  options: ApprovalQuestionOptions = {},
): ApprovalQuestion {
  const { maxArgumentChars, oversize } = checkApprovalQuestionOptions(
    options,
    'renderApprovalQuestion',
  );
  const name = shownName(String(call.name));
  const tool = name.text;
  const { text, cuts } = renderArguments(call.arguments, maxArgumentChars);
  if (name.rest > 0) {
    cuts.unshift({
      field: '(tool name)',
      totalChars: String(call.name).length,
      cutChars: name.rest,
    });
  }
  if (cuts.length === 0) return { tool, arguments: text, cuts };
  const fields = cuts
    .map(
      (cut) =>
        `field '${cut.field}' is cut by ${count(cut.cutChars)} of ${count(cut.totalChars)} characters`,
    )
    .join(', ');
  const notice = `The arguments are longer than the ${count(maxArgumentChars)} characters an approval question shows: ${fields}.`;
  if (oversize === 'ask') return { tool, arguments: text, cuts, notice };
  const would = fields.replace(/ is cut by /g, ' would be cut by ');
  return {
    tool,
    arguments: text,
    cuts,
    notice,
    denial: {
      decision: 'deny',
      reason: `The arguments of '${tool}' are too long to show whole in an approval question (${would}; a question shows at most ${count(maxArgumentChars)} characters), so the call is denied without asking. Send shorter arguments, e.g. split the work into smaller calls.`,
    },
  };
}

/**
 * Checks and defaults the options an approval adapter passes to
 * {@link renderApprovalQuestion}, so that a bad option fails when the adapter is made.
 *
 * @param options - the adapter's options
 * @param where - the factory's name, for the message
 * @returns the options with their defaults
 * @throws `ToolSearchError` `invalid_argument` when `maxArgumentChars` is not a positive
 * integer or `oversize` is not `'deny'` or `'ask'`
 */
export function checkApprovalQuestionOptions(
  options: ApprovalQuestionOptions,
  where: string,
): Required<ApprovalQuestionOptions> {
  const maxArgumentChars = options.maxArgumentChars ?? DEFAULT_APPROVAL_ARGUMENT_CHARS;
  if (!Number.isInteger(maxArgumentChars) || maxArgumentChars < 1) {
    throw new ToolSearchError(
      'invalid_argument',
      `${where}: maxArgumentChars must be a positive integer, got ${String(maxArgumentChars)}.`,
    );
  }
  const oversize = options.oversize ?? 'deny';
  if (oversize !== 'deny' && oversize !== 'ask') {
    throw new ToolSearchError(
      'invalid_argument',
      `${where}: oversize must be 'deny' or 'ask', got ${String(oversize)}.`,
    );
  }
  return { maxArgumentChars, oversize };
}
