import type { Promisable } from '@tool-search/core';
import { ToolSearchError } from '@tool-search/core';
import {
  type ApprovalOversize,
  type ApprovalQuestion,
  checkApprovalQuestionOptions,
  renderApprovalQuestion,
} from './approval-question.js';
import type {
  ApprovalAdapter,
  ApprovalAnswer,
  ApprovalDecision,
  ApprovalRequest,
} from './types.js';

/** What an approval callback may answer; `true` means 'allow-once', `false` 'deny'. */
export type ApprovalCallbackAnswer = ApprovalDecision | ApprovalAnswer | boolean;

/** Options of {@link createCallbackApproval}. */
export interface CallbackApprovalOptions {
  /** @defaultValue `'callback'` */
  name?: string;
  /**
   * The most characters of arguments the question passed to `fn` shows.
   * @defaultValue 4000
   */
  maxArgumentChars?: number;
  /**
   * What happens to a call whose arguments are longer: `'deny'` without calling `fn`, or
   * `'ask'`: `fn` gets the cut question, whose `notice` names each cut field.
   * @defaultValue `'deny'`
   */
  oversize?: ApprovalOversize;
}

/**
 * Creates an approval adapter from a function, e.g. one that asks through your UI.
 * `true` answers 'allow-once' and `false` 'deny'; the dispatcher denies any other
 * answer it does not know, and when the function throws, rejects or runs out of time.
 * Watch `request.signal`: it aborts when the call is cancelled or the approval times out.
 *
 * `fn` also gets the call rendered for a person by {@link renderApprovalQuestion}: show
 * `question.tool` and `question.arguments` rather than rendering `request.call` yourself,
 * so that whitespace runs, bidi controls and invisible characters cannot hide what runs.
 * A call whose arguments are longer than `maxArgumentChars` is denied without calling
 * `fn`, unless `oversize` is `'ask'`.
 *
 * @param fn - decides on one request
 * @param options.name - the adapter's name in denials
 * @param options.maxArgumentChars - the most characters of arguments the question shows
 * @param options.oversize - what happens to longer arguments
 * @returns an {@link ApprovalAdapter}
 * @throws `ToolSearchError` `invalid_argument` when `fn` is not a function,
 * `maxArgumentChars` is not a positive integer or `oversize` is not `'deny'` or `'ask'`
 *
 * @example
 * ```ts
 * const approval = createCallbackApproval(async ({ signal }, question) => {
 *   const answer = await ui.confirm(`Run ${question.tool} with ${question.arguments}?`, { signal });
 *   return answer === 'always' ? 'allow-session' : answer === 'yes';
 * });
 * ```
 */
export function createCallbackApproval(
  fn: (request: ApprovalRequest, question: ApprovalQuestion) => Promisable<ApprovalCallbackAnswer>,
  options: CallbackApprovalOptions = {},
): ApprovalAdapter {
  if (typeof fn !== 'function') {
    throw new ToolSearchError('invalid_argument', 'createCallbackApproval: fn must be a function.');
  }
  const questionOptions = checkApprovalQuestionOptions(options, 'createCallbackApproval');
  return {
    name: options.name ?? 'callback',
    async request(request) {
      const question = renderApprovalQuestion(request.call, questionOptions);
      if (question.denial) return question.denial;
      const answer = await fn(request, question);
      if (answer === true) return 'allow-once';
      if (answer === false)
        return { decision: 'deny', reason: `The call to '${request.call.name}' was not approved.` };
      return answer;
    },
  };
}
