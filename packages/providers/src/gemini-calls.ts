import type { ToolCall } from '@tool-search/core';
import { ToolSearchError } from '@tool-search/core';
import { BRIDGE_TOOL_NAMES, isRecord } from '@tool-search/core/internal';
import { noteDispatched, type PreparedTools } from './plan.js';
import type {
  ProviderCallContext,
  ProviderDispatch,
  ProviderDispatchContext,
} from './programmatic.js';
import { shownName } from './programmatic.js';
import type { BridgeAssemblyShape } from './settle-mode.js';
import { renderToolOutcome } from './tool-outcome.js';

/** A `functionCall` part of a `generateContent` response (`FunctionCall` of `@google/genai`). */
export interface GeminiFunctionCall {
  name?: string;
  args?: unknown;
  id?: string;
}

/** The `functionResponse` part that answers one call (`Part` of `@google/genai`). */
export interface GeminiFunctionResponsePart {
  functionResponse: { name: string; id?: string; response: Record<string, unknown> };
}

/** A `function_result` input step of an interaction (`FunctionResultStep` of `@google/genai`). */
export interface GeminiInteractionFunctionResult {
  type: 'function_result';
  call_id: string;
  name: string;
  result: string;
  is_error?: boolean;
}

/**
 * What answers the bridge tools: `handleBridgeCall` of `@tool-search/bridge` (the providers
 * package does not depend on the bridge).
 */
export type GeminiBridgeHandler = (
  assembly: never,
  call: { id?: string; name: string; arguments: unknown },
  dispatch: (call: ToolCall, context: { via: 'bridge' | 'direct' }) => unknown,
  options: { refuseUnknownNames: boolean },
) => PromiseLike<unknown> | undefined;

/** Options of {@link dispatchGeminiFunctionCall}. */
export interface DispatchGeminiOptions {
  /** `handleBridgeCall` of `@tool-search/bridge`: needed in `bridge` mode. */
  bridge?: GeminiBridgeHandler;
  /** Passed on to the dispatcher: the session and the abort signal. */
  context?: ProviderDispatchContext;
}

const BRIDGE_NAMES = new Set<string>(BRIDGE_TOOL_NAMES);

function refusal(text: string) {
  return { status: 'denied' as const, reason: text, call: { name: '' } };
}

// One call of the model, whatever the API: what it came to and the name to answer with.
async function settleCall(
  prepared: Pick<PreparedTools<unknown, unknown>, 'names' | 'bridge' | 'learning'>,
  call: { id?: string; name: unknown; args: unknown },
  dispatch: ProviderDispatch,
  options: DispatchGeminiOptions,
): Promise<unknown> {
  if (typeof call.name !== 'string' || call.name === '') {
    return refusal('the call has no function name.');
  }
  const sessionName = prepared.names.fromProvider(call.name);
  const shown = shownName(sessionName ?? call.name);
  const raw = call.args;
  if (raw !== undefined && raw !== null && (!isRecord(raw) || Array.isArray(raw))) {
    return refusal(`the arguments of the call of '${shown}' are not an object.`);
  }
  const args = (raw ?? {}) as Record<string, unknown>;
  const id = call.id === undefined ? {} : { id: call.id };
  const context = options.context ?? {};
  const visible =
    sessionName !== undefined &&
    !BRIDGE_NAMES.has(sessionName) &&
    (prepared.bridge as BridgeAssemblyShape | undefined)?.tools.some(
      (tool) => tool.name === sessionName,
    ) === true;
  if (prepared.bridge !== undefined && !visible) {
    if (options.bridge === undefined) {
      throw new ToolSearchError(
        'invalid_argument',
        'This preparation is in bridge mode: pass `bridge: handleBridgeCall` (from @tool-search/bridge) to answer its calls.',
        { data: { field: 'bridge' } },
      );
    }
    const answered = options.bridge(
      prepared.bridge as never,
      { ...id, name: sessionName ?? call.name, arguments: args },
      (real, bridged) => dispatch(real, { ...context, ...bridged } as ProviderCallContext),
      { refuseUnknownNames: true },
    );
    if (answered !== undefined) return await answered;
  } else if (
    prepared.bridge === undefined &&
    (sessionName === undefined || BRIDGE_NAMES.has(sessionName))
  ) {
    return refusal(
      `'${shown}' is not available in this session. Use tool_search to find tools you can call.`,
    );
  }
  const name = sessionName ?? call.name;
  const outcome = await dispatch({ ...id, name, arguments: args }, { ...context, via: 'direct' });
  if (prepared.bridge === undefined) noteDispatched(prepared, name, outcome);
  return outcome;
}

function checkCall(call: unknown, helper: string): asserts call is Record<string, unknown> {
  if (!isRecord(call)) {
    throw new ToolSearchError('invalid_argument', `${helper} needs the model's call, an object.`);
  }
}

/**
 * Answers one `functionCall` part of a `generateContent` response: in `bridge` mode the
 * bridge tools are answered by the bridge (`options.bridge`, `handleBridgeCall`), and a
 * `tool_call` is unwrapped and its real call dispatched with `via: 'bridge'`; a deferred
 * tool called by its own name is routed the same way; a visible tool's call is dispatched
 * directly (`via: 'direct'`). A name the session does not hold, or arguments that are not
 * an object, are refused before dispatch. The outcome becomes the `functionResponse`:
 * `{ output }` with the tool's result, or `{ error }` with the refusal, never the call's
 * arguments. Every real call goes through `dispatch` (the hooks pipeline).
 *
 * @param prepared - the preparation of the request the call came from
 * @param call - the `functionCall` (`name`, `args`, `id`)
 * @param dispatch - the dispatcher (`createDispatcher(...)` of `@tool-search/hooks`)
 * @param options - `bridge: handleBridgeCall` for bridge mode; the dispatch context
 * @returns the `functionResponse` part for the next user content
 * @throws `ToolSearchError` `invalid_argument` when `call` is not an object, or a bridge-mode preparation gets no `options.bridge`; whatever `dispatch` throws (a hooks dispatcher never throws)
 */
export async function dispatchGeminiFunctionCall(
  prepared: Pick<PreparedTools<unknown, unknown>, 'names' | 'bridge' | 'learning'>,
  call: { name: string; args?: unknown; id?: string },
  dispatch: ProviderDispatch,
  options: DispatchGeminiOptions = {},
): Promise<GeminiFunctionResponsePart> {
  checkCall(call, 'dispatchGeminiFunctionCall');
  const outcome = await settleCall(
    prepared,
    {
      name: call['name'],
      args: call['args'],
      ...(typeof call['id'] === 'string' ? { id: call['id'] } : {}),
    },
    dispatch,
    options,
  );
  const { text, isError } = renderToolOutcome(outcome);
  const name = typeof call['name'] === 'string' ? call['name'] : shownName(call['name']);
  return {
    functionResponse: {
      name,
      ...(typeof call['id'] === 'string' ? { id: call['id'] } : {}),
      response: isError ? { error: text } : { output: text },
    },
  };
}

/**
 * Answers every `functionCall` part of a response (`response.functionCalls`) at once: the
 * calls run in parallel, each as {@link dispatchGeminiFunctionCall} runs it, and the parts
 * come back in the calls' order, for one user content.
 *
 * @param prepared - the preparation of the request the calls came from
 * @param calls - the `functionCall`s of the response
 * @param dispatch - the dispatcher
 * @param options - as for {@link dispatchGeminiFunctionCall}
 * @returns the `functionResponse` parts, in order
 * @throws as {@link dispatchGeminiFunctionCall}
 */
export function dispatchGeminiFunctionCalls(
  prepared: Pick<PreparedTools<unknown, unknown>, 'names' | 'bridge' | 'learning'>,
  calls: readonly { name?: string; args?: unknown; id?: string }[],
  dispatch: ProviderDispatch,
  options: DispatchGeminiOptions = {},
): Promise<GeminiFunctionResponsePart[]> {
  return Promise.all(
    calls.map((call) =>
      dispatchGeminiFunctionCall(prepared, call as { name: string }, dispatch, options),
    ),
  );
}

/**
 * Answers one `function_call` step of an interaction (`{ id, name, arguments }`), as
 * {@link dispatchGeminiFunctionCall} answers a `generateContent` call, with the
 * `function_result` input step for the next interaction.
 *
 * @param prepared - the preparation of the request the step came from
 * @param step - the `function_call` step
 * @param dispatch - the dispatcher
 * @param options - as for {@link dispatchGeminiFunctionCall}
 * @returns the `function_result` step
 * @throws `ToolSearchError` `invalid_argument` when the step has no string `id`, or as {@link dispatchGeminiFunctionCall}
 */
export async function dispatchGeminiInteractionCall(
  prepared: Pick<PreparedTools<unknown, unknown>, 'names' | 'bridge' | 'learning'>,
  step: { id: string; name: string; arguments?: unknown },
  dispatch: ProviderDispatch,
  options: DispatchGeminiOptions = {},
): Promise<GeminiInteractionFunctionResult> {
  checkCall(step, 'dispatchGeminiInteractionCall');
  if (typeof step['id'] !== 'string') {
    throw new ToolSearchError(
      'invalid_argument',
      'dispatchGeminiInteractionCall needs a function_call step with a string id.',
    );
  }
  const outcome = await settleCall(
    prepared,
    { id: step['id'], name: step['name'], args: step['arguments'] },
    dispatch,
    options,
  );
  const { text, isError } = renderToolOutcome(outcome);
  return {
    type: 'function_result',
    call_id: step['id'],
    name: typeof step['name'] === 'string' ? step['name'] : shownName(step['name']),
    result: text,
    ...(isError ? { is_error: true } : {}),
  };
}
