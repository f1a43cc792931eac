import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type {
  CallToolRequest,
  CallToolResult,
  ServerNotification,
  ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import {
  type Assembly,
  bridgeErrors,
  echoName,
  handleBridgeCall,
  TOOL_CALL,
  TOOL_DESCRIBE,
  TOOL_SEARCH,
} from '@tool-search/bridge';
import { TOOL_PROGRAM } from '@tool-search/code';
import { callSucceeded } from '@tool-search/core/internal';
import type { AuditRefusal, DispatchResult, ToolCallContext } from '@tool-search/hooks';
import { batchCallResult } from '../tool-result/batch-result.js';
import { bridgeAnswerResult, isBridgeError, toCallToolResult } from '../tool-result/call-result.js';
import { errorResult } from '../tool-result/error-result.js';
import type { UpstreamCallOptions } from '../upstream/pool.js';
import { type BatchDeadline, startBatchDeadline } from './batch-deadline.js';
import { forwardedMeta } from './feature-session.js';
import { callSessionProgram } from './program-call.js';
import { callRelayOf } from './relay.js';
import type { SessionState } from './session-state.js';
import type { GatewayActivity } from './types.js';

/**
 * What a call needs of the client's request: its id, and a way to send it notifications
 * (progress). A 2025 session passes its SDK's request context; the stateless leg its own.
 */
export type SessionCallExtra = Pick<
  RequestHandlerExtra<ServerRequest, ServerNotification>,
  'requestId' | 'sendNotification'
> &
  // A session's call can send requests to its client (the relay); a stateless one cannot.
  Partial<Pick<RequestHandlerExtra<ServerRequest, ServerNotification>, 'sendRequest'>> & {
    /** A stateless (2026) call's own answer to an upstream's questions, and its `_meta`. */
    input?: StatelessInput;
    /** The call's relay when the caller makes its own (the stateless leg: logs of the call). */
    relay?: UpstreamCallOptions['relay'];
  };
type Extra = SessionCallExtra;

/** How a stateless call meets an upstream's questions: deferred to its client, resumed on retry. */
export interface StatelessInput {
  onInputRequired: NonNullable<UpstreamCallOptions['onInputRequired']>;
  resumeInput?: UpstreamCallOptions['resumeInput'];
  /** `_meta` the gateway sets on the upstream call (the client's capabilities it can relay). */
  meta?: Record<string, unknown>;
  /** Where a 2025-era upstream's requests during the call go (a call held live for its client). */
  relay?: UpstreamCallOptions['relay'];
}

/** The dispatch context of a gateway call: the client's progress listener rides along. */
export interface CallContext extends ToolCallContext {
  onProgress?: UpstreamCallOptions['onProgress'];
  /** The client's `tools/call` the call serves: an approval question goes on its stream. */
  requestId?: Extra['requestId'];
  /** Where what the upstream asks during the call goes: this client, on this call's stream. */
  relay?: UpstreamCallOptions['relay'];
  /** The client's `_meta` of the call (without its progress token), sent on upstream. */
  meta?: UpstreamCallOptions['meta'];
  /** A stateless call's answer to an upstream's `input_required`. */
  onInputRequired?: UpstreamCallOptions['onInputRequired'];
  /** A stateless call's retry: the answers of the round it deferred. */
  resumeInput?: UpstreamCallOptions['resumeInput'];
}

const DISPATCHED = Symbol('dispatched');
interface Dispatched {
  [DISPATCHED]: DispatchResult;
  /** The bridge's hint for the model (a `tool_call` of a tool it already sees). */
  hint?: string;
}

function isDispatched(value: unknown): value is Dispatched {
  return typeof value === 'object' && value !== null && DISPATCHED in value;
}

// A `tool_call` batch answers `{ results }`: each a dispatched call or the bridge's refusal.
function batchResults(value: unknown): unknown[] | undefined {
  if (typeof value !== 'object' || value === null || !('results' in value)) return undefined;
  const results = (value as { results: unknown }).results;
  return Array.isArray(results) ? results : undefined;
}

// The MCP result of a dispatched call, with the bridge's hint as one more text part: the
// model reads the content, not the object the bridge put the hint on.
function dispatchedResult(dispatched: Dispatched): CallToolResult {
  const result = toCallToolResult(dispatched[DISPATCHED]);
  if (dispatched.hint === undefined) return result;
  return { ...result, content: [...result.content, { type: 'text', text: dispatched.hint }] };
}

function batchOutcome(result: unknown) {
  if (isDispatched(result)) {
    return { name: result[DISPATCHED].call.name, result: dispatchedResult(result) };
  }
  const name = (result as { name?: unknown }).name;
  return {
    name: typeof name === 'string' ? name : undefined,
    result: bridgeAnswerResult(TOOL_CALL, result),
  };
}

/** The client's progress listener for one call, and a wait for the updates it forwarded. */
interface ProgressForward {
  onProgress: UpstreamCallOptions['onProgress'];
  settle: () => Promise<unknown>;
}

// A client that sent a progress token gets the upstream's progress under that token,
// whether it called the tool by name or through tool_call.
// The result waits for the forwarded updates: a client stops listening for a
// request's progress once its response has arrived.
function forwardProgress(request: CallToolRequest, extra: Extra): ProgressForward {
  const progressToken = request.params._meta?.progressToken;
  const forwarded: Promise<void>[] = [];
  const onProgress: UpstreamCallOptions['onProgress'] =
    progressToken === undefined
      ? undefined
      : (progress) => {
          forwarded.push(
            extra
              .sendNotification({
                method: 'notifications/progress',
                params: { ...progress, progressToken },
              })
              .catch(() => {}),
          );
        };
  return { onProgress, settle: () => Promise.all(forwarded) };
}

/** The relay of the call and the client's `_meta` (the progress token is the gateway's to map). */
function relayAndMeta(state: SessionState, request: CallToolRequest, extra: Extra) {
  const forwarded = forwardedMeta(request.params as Record<string, unknown>);
  const { sendRequest, sendNotification, input } = extra;
  const meta = input?.meta === undefined ? forwarded : { ...(forwarded ?? {}), ...input.meta };
  const relay =
    input?.relay ??
    extra.relay ??
    (sendRequest === undefined ? undefined : callRelayOf(state, { sendRequest, sendNotification }));
  return {
    ...(relay === undefined ? {} : { relay }),
    ...(meta === undefined ? {} : { meta }),
    ...(input === undefined
      ? {}
      : {
          onInputRequired: input.onInputRequired,
          ...(input.resumeInput === undefined ? {} : { resumeInput: input.resumeInput }),
        }),
  };
}

/** A refusal's record goes the way of every other (a lost one is reported by the hook). */
function auditRefusal(state: SessionState, refusal: Omit<AuditRefusal, 'sessionId'>): void {
  void Promise.resolve()
    .then(() => state.context.auditHook.recordRefusal({ ...refusal, sessionId: state.id }))
    .catch(() => {});
}

/**
 * Answers one `tools/call` of the session: a bridge tool through the bridge (its real
 * calls through the dispatcher), any other name directly when the session lists it.
 */
export async function callSessionTool(
  state: SessionState,
  request: CallToolRequest,
  extra: Extra,
  signal: AbortSignal,
): Promise<CallToolResult> {
  if (request.params.name === TOOL_PROGRAM && state.program !== undefined) {
    return callSessionProgram(state, state.program, request, extra, signal);
  }
  const current = state.assembly!;
  const call = { name: request.params.name, arguments: request.params.arguments ?? {} };
  const began = performance.now();
  const progress = forwardProgress(request, extra);
  const deadline = startBatchDeadline(call, state.batchDeadlineMs);
  const answer = bridgeCall(state, current, call, { progress, deadline, signal, extra, request });
  if (answer !== undefined) {
    const settled = await answer.finally(() => deadline?.clear());
    return bridgeResult(state, call, settled, began);
  }
  deadline?.clear();
  const tool = state.scoped.get(call.name);
  const visible = tool !== undefined && current.tools.some((entry) => entry.name === call.name);
  if (!visible) {
    const reason = bridgeErrors.notInSession(call.name);
    auditRefusal(state, { tool: echoName(call.name), reason, via: 'direct' });
    return errorResult('not_in_session', reason);
  }
  const context: CallContext = {
    sessionId: state.id,
    signal,
    via: 'direct',
    tool,
    onProgress: progress.onProgress,
    requestId: extra.requestId,
    ...relayAndMeta(state, request, extra),
  };
  const result = await state.dispatcher(call, context);
  await progress.settle();
  return toCallToolResult(result);
}

type Call = { name: string; arguments: Record<string, unknown> };

/** Hands a bridge tool's call to the bridge; undefined when the name is not a bridge tool. */
function bridgeCall(
  state: SessionState,
  current: Assembly,
  call: Call,
  request: {
    progress: ProgressForward;
    deadline: BatchDeadline | undefined;
    signal: AbortSignal;
    extra: Extra;
    request: CallToolRequest;
  },
) {
  const { progress, deadline, signal, extra } = request;
  const clientRequest = request.request;
  return handleBridgeCall(
    current,
    call,
    async (real, ctx) => {
      if (deadline?.passed()) {
        return { [DISPATCHED]: deadline.result(real, 'not run') } satisfies Dispatched;
      }
      const context: CallContext = {
        sessionId: state.id,
        signal: deadline === undefined ? signal : AbortSignal.any([signal, deadline.signal]),
        via: ctx.via,
        tool: ctx.tool,
        onProgress: progress.onProgress,
        requestId: extra.requestId,
        ...relayAndMeta(state, clientRequest, extra),
      };
      let result = await state.dispatcher(real, context);
      await progress.settle();
      // Cut short by the batch's deadline (not by the client): say so.
      if (deadline?.passed() && !signal.aborted && !callSucceeded(result)) {
        result = deadline.result(real, 'cancelled');
      }
      return {
        [DISPATCHED]: result,
        ...(ctx.hint === undefined ? {} : { hint: ctx.hint }),
      } satisfies Dispatched;
    },
    // The pool holds more tools than this session may see: refuse every other name here,
    // and audit the refusal, which no dispatcher hook sees.
    {
      refuseUnknownNames: true,
      // What succeeded is the dispatched call's own outcome (an MCP error result is not).
      succeeded: (value) => isDispatched(value) && callSucceeded(value[DISPATCHED]),
      onRefused: (refusal) =>
        auditRefusal(state, {
          tool: refusal.name,
          reason: refusal.error,
          via: refusal.via,
          ...(refusal.id === undefined ? {} : { callId: refusal.id }),
        }),
    },
  );
}

/** The MCP result of a bridge tool's answer; a search or describe goes to the activity feed. */
function bridgeResult(
  state: SessionState,
  call: Call,
  settled: unknown,
  began: number,
): CallToolResult {
  if (isDispatched(settled)) return dispatchedResult(settled);
  const batch = call.name === TOOL_CALL ? batchResults(settled) : undefined;
  if (batch !== undefined) return batchCallResult(batch.map(batchOutcome));
  if (call.name === TOOL_SEARCH || call.name === TOOL_DESCRIBE) {
    const isError = isBridgeError(settled);
    const activity: GatewayActivity = {
      sessionId: state.id,
      kind: call.name === TOOL_SEARCH ? 'search' : 'describe',
      name: call.name,
      arguments: call.arguments,
      status: isError ? 'error' : 'ok',
      durationMs: Math.round(performance.now() - began),
    };
    if (state.profileName !== undefined) activity.profile = state.profileName;
    if (isError) activity.detail = String(settled.error);
    state.context.emitActivity(activity);
  }
  return bridgeAnswerResult(call.name, settled);
}
