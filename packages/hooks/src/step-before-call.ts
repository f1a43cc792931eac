import { isRecord } from '@tool-search/core/internal';
import { type CallState, cancel, contextFor, deny } from './call-state.js';
import { failureText } from './dispatch-errors.js';
import { type DispatchConfig, normalizeCall } from './dispatch-input.js';
import { runStep } from './run-step.js';
import { lookUpTool } from './step-start.js';
import type { DeniedBy } from './types.js';

/**
 * Runs the `beforeCall` hooks in registration order. Each sees the call as the hooks
 * before it left it, and may rewrite it (a renamed call gets its tool looked up again)
 * or deny it. A hook that throws, rejects, answers something unknown, rewrites into a
 * malformed call or runs out of time denies the call (hooks before a call fail closed).
 *
 * @param state - the call's state after the guardrails
 * @param config - the hooks, `resolveTool` and `timeouts.hook`
 * @returns the next state: `rewritten` and the final `call` and `tool` when a hook
 * rewrote the call, or a denied, cancelled or `tool_lookup_failed` state
 * @throws nothing
 */
export async function runBeforeHooks(
  state: CallState,
  config: Pick<DispatchConfig, 'hooks' | 'resolveTool' | 'timeouts'>,
): Promise<CallState> {
  const timeoutMs = config.timeouts.hook;
  let current = state;
  for (const hook of config.hooks) {
    if (!hook.beforeCall) continue;
    const before = hook.beforeCall.bind(hook);
    const seen = current;
    const outcome = await runStep(
      (stepSignal) => before(seen.call, contextFor(seen, stepSignal)),
      timeoutMs,
      seen.signal,
    );
    if (outcome.kind === 'aborted') return cancel(seen, 'before it ran');
    const by: DeniedBy = { kind: 'hook', name: hook.name };
    const name = seen.call.name;
    if (outcome.kind === 'value') {
      const value: unknown = outcome.value;
      if (value === undefined || value === null) continue;
      if (isRecord(value) && 'deny' in value) {
        return deny(
          seen,
          by,
          typeof value.deny === 'string' && value.deny.length > 0
            ? value.deny
            : `Hook '${hook.name}' denied the call to '${name}'.`,
        );
      }
      if (isRecord(value) && 'call' in value) {
        const next = normalizeCall(value.call);
        if ('problem' in next) {
          return deny(
            seen,
            by,
            `Hook '${hook.name}' rewrote the call to '${name}' into an invalid one (${next.problem}), so it is denied.`,
          );
        }
        let tool = seen.tool;
        if (next.call.name !== name) {
          const found = lookUpTool(seen, config, next.call.name);
          if ('failure' in found) return found.failure;
          tool = found.tool;
        }
        current = { ...seen, call: next.call, tool, rewritten: true };
        continue;
      }
    }
    return deny(
      seen,
      by,
      `Hook '${hook.name}' ${failureText(outcome, timeoutMs)} before the call to '${name}', so it is denied (hooks that fail before a call deny it).`,
    );
  }
  return current;
}
