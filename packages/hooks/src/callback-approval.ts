import type { Promisable } from '@tool-search/core';
import { ToolSearchError } from '@tool-search/core';
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
}

/**
 * Creates an approval adapter from a function, e.g. one that asks through your UI.
 * `true` answers 'allow-once' and `false` 'deny'; the dispatcher denies any other
 * answer it does not know, and when the function throws, rejects or runs out of time.
 * Watch `request.signal`: it aborts when the call is cancelled or the approval times out.
 *
 * @param fn - decides on one request
 * @param options.name - the adapter's name in denials
 * @returns an {@link ApprovalAdapter}
 * @throws `ToolSearchError` `invalid_argument` when `fn` is not a function
 *
 * @example
 * ```ts
 * const approval = createCallbackApproval(async ({ call, tool, signal }) => {
 *   const answer = await ui.confirm(`Run ${call.name}?`, { signal, detail: tool?.description });
 *   return answer === 'always' ? 'allow-session' : answer === 'yes';
 * });
 * ```
 */
export function createCallbackApproval(
  fn: (request: ApprovalRequest) => Promisable<ApprovalCallbackAnswer>,
  options: CallbackApprovalOptions = {},
): ApprovalAdapter {
  if (typeof fn !== 'function') {
    throw new ToolSearchError('invalid_argument', 'createCallbackApproval: fn must be a function.');
  }
  return {
    name: options.name ?? 'callback',
    async request(request) {
      const answer = await fn(request);
      if (answer === true) return 'allow-once';
      if (answer === false)
        return { decision: 'deny', reason: `The call to '${request.call.name}' was not approved.` };
      return answer;
    },
  };
}
