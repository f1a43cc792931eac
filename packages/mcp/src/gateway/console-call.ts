import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { bridgeErrors, echoName, resolveUnderlyingCall, TOOL_CALL } from '@tool-search/bridge';
import { toCallToolResult } from '../tool-result/call-result.js';
import { errorResult } from '../tool-result/error-result.js';
import type { SessionState } from './session-state.js';
import type { GatewayOperatorCallOptions } from './types.js';

/**
 * An operator's call of a tool of the session's scope, from the gateway console: the
 * same pipeline as a model's call (guardrails, hooks, the approval, the audit and the
 * activity feed), with `via: 'console'` and the operator on the context. A deferred tool's
 * arguments are checked and repaired as the bridge does for a model's call of it; a tool
 * outside the session's scope is refused and audited, as a model's call of it would be.
 *
 * @param state - the session
 * @param call - the tool's exposed name and the arguments
 * @param options - the operator and an abort signal
 * @returns the MCP result (an error result for a denial or a failure)
 * @throws nothing
 */
export async function callAsOperator(
  state: SessionState,
  call: { name: string; arguments: Record<string, unknown> },
  options: GatewayOperatorCallOptions,
): Promise<CallToolResult> {
  await state.context.upstreamsSettled();
  const tool = state.scoped.get(call.name);
  if (tool === undefined) {
    const reason = bridgeErrors.notInSession(call.name);
    void Promise.resolve(
      state.context.auditHook.recordRefusal({
        tool: echoName(call.name),
        reason,
        via: 'console',
        sessionId: state.id,
      }),
    ).catch(() => {});
    return errorResult('not_in_session', reason);
  }
  // A deferred tool's arguments get what a model's call of it gets from the bridge: the
  // check against its schema and the unambiguous repairs (`"42"` for an integer).
  let final = call;
  if (state.assembly?.deferred.some((entry) => entry.name === call.name)) {
    const resolved = resolveUnderlyingCall(state.assembly, {
      name: TOOL_CALL,
      arguments: { name: call.name, arguments: call.arguments },
    });
    if (!resolved.ok) return errorResult('invalid_argument', resolved.error);
    final = { name: resolved.call.name, arguments: resolved.call.arguments };
  }
  const result = await state.dispatcher(final, {
    sessionId: state.id,
    via: 'console',
    operator: options.operator,
    tool,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  return toCallToolResult(result);
}
