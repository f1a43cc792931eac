import type { DispatchResult } from '@tool-search/hooks';
import type { CallSuspension } from './call-dispatch.js';

/**
 * Runs one dispatch that an approval may suspend (LangGraph's `interrupt()` pauses a
 * graph by throwing, which a dispatcher that fails closed would take for a refusal): the
 * dispatch gets its own signal, following `parent`; `suspend(reason)` aborts it, so the
 * dispatch settles as cancelled (the audit records it so), and then `reason` is thrown
 * for the graph to catch. On resume, the graph runs the tool again and the approval
 * answers with the person's answer.
 *
 * @param parent - the caller's signal (the LangChain run's)
 * @param dispatch - runs the dispatch with the suspension and the signal
 * @returns the dispatch result
 * @throws the suspension's reason when an approval suspended the call
 */
export async function runSuspendable(
  parent: AbortSignal | undefined,
  dispatch: (suspension: CallSuspension, signal: AbortSignal) => Promise<DispatchResult>,
): Promise<DispatchResult> {
  const controller = new AbortController();
  const forward = () => controller.abort(parent?.reason);
  if (parent?.aborted) forward();
  else parent?.addEventListener('abort', forward, { once: true });
  let suspended: { reason: unknown } | undefined;
  const suspension: CallSuspension = {
    suspend(reason) {
      suspended ??= { reason };
      controller.abort(reason);
    },
  };
  try {
    const result = await dispatch(suspension, controller.signal);
    if (suspended) throw suspended.reason;
    return result;
  } finally {
    parent?.removeEventListener('abort', forward);
  }
}
