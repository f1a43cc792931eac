// A tools/call of tool_program in a gateway session: the program runs in the gateway's
// workers over the session's own tools; each nested call goes through the session's own
// dispatcher (guardrails, hooks, approvals, audit) and, when the client asked for
// progress, is reported as it settles.
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type {
  CallToolRequest,
  CallToolResult,
  ServerNotification,
  ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { ProgramResult, ProgramTool } from '@tool-search/code';
import { isToolSearchErrorCode } from '@tool-search/core';
import type { Dispatcher, DispatchResult, ToolCallContext } from '@tool-search/hooks';
import { isMcpErrorCode } from '../errors.js';
import { isCallToolResult } from '../tool-result/call-result.js';
import { errorResult, UPSTREAM_ERROR_META_KEY } from '../tool-result/error-result.js';
import type { CallRelay } from '../upstream/features/relay.js';
import { activityStatus } from './activity.js';
import { callRelayOf } from './relay.js';
import type { SessionState } from './session-state.js';

/**
 * What a call needs of the client's request: its id, and a way to send it notifications
 * (progress). A 2025 session passes its SDK's request context; the stateless leg its own.
 */
type Extra = Pick<
  RequestHandlerExtra<ServerRequest, ServerNotification>,
  'requestId' | 'sendNotification'
> &
  // A session's program can send requests to its client (the relay); a stateless one cannot.
  Partial<Pick<RequestHandlerExtra<ServerRequest, ServerNotification>, 'sendRequest'>>;

/** Reports each settled nested call of one program to the client that asked for progress. */
interface ProgramProgress {
  report(result: DispatchResult): void;
  /** Waits for the notifications sent: a client stops listening once it has the answer. */
  settle(): Promise<unknown>;
}

/** What one settled nested call says in its progress notification. */
export function progressMessage(result: DispatchResult): string {
  const status = activityStatus(result);
  const name = JSON.stringify(result.call.name.slice(0, 200));
  switch (result.status) {
    case 'denied':
      return `tools.call(${name}): denied by ${result.by.kind} '${result.by.name}'`;
    case 'error':
      return `tools.call(${name}): error (${result.error.code})`;
    default:
      return `tools.call(${name}): ${status}`;
  }
}

function programProgress(request: CallToolRequest, extra: Extra): ProgramProgress {
  const progressToken = request.params._meta?.progressToken;
  const sent: Promise<void>[] = [];
  let settled = 0;
  return {
    report(result) {
      if (progressToken === undefined) return;
      settled += 1;
      sent.push(
        extra
          .sendNotification({
            method: 'notifications/progress',
            params: { progressToken, progress: settled, message: progressMessage(result) },
          })
          .catch(() => {}),
      );
    },
    settle: () => Promise.all(sent),
  };
}

/** The most characters of an error result's text a program's error carries. */
const MAX_ERROR_CHARS = 2_000;

/**
 * What a program is handed for a settled call: an MCP error result (the upstream failed,
 * timed out, or the tool answered an error) becomes an error that throws inside the
 * program, with the gateway's code (`_meta["tool-search/error"]`, else `tool_failed`) and
 * the result's text. The hooks and the audit saw the result as it was.
 */
export function forProgram(result: DispatchResult): DispatchResult {
  if (result.status !== 'ok' || !isCallToolResult(result.result) || !result.result.isError) {
    return result;
  }
  const meta = result.result._meta?.[UPSTREAM_ERROR_META_KEY];
  const code = isMcpErrorCode(meta) || isToolSearchErrorCode(meta) ? meta : 'tool_failed';
  const text = result.result.content
    .map((part) => (part.type === 'text' ? part.text : `[${part.type}]`))
    .join('\n');
  const message =
    text.length > MAX_ERROR_CHARS
      ? `${text.slice(0, MAX_ERROR_CHARS)}… (cut)`
      : text || 'the tool answered an error';
  return { status: 'error', call: result.call, error: { code, message } };
}

/**
 * The dispatcher of one program's nested calls: the session's own, inside the client's
 * request (an approval question, and what an upstream asks during a nested call, go on
 * that request's stream), each settled call reported.
 */
function programDispatcher(
  state: SessionState,
  extra: Extra,
  progress: ProgramProgress,
): Dispatcher {
  const { requestId, sendRequest, sendNotification } = extra;
  const relay =
    sendRequest === undefined ? undefined : callRelayOf(state, { sendRequest, sendNotification });
  return async (call, ctx) => {
    // The client request the program serves: an approval question goes on its stream.
    const context: ToolCallContext & { requestId: Extra['requestId']; relay?: CallRelay } = {
      ...ctx,
      sessionId: state.id,
      requestId,
      ...(relay === undefined ? {} : { relay }),
    };
    const result = await state.dispatcher(call, context);
    progress.report(result);
    return forProgram(result);
  };
}

/**
 * The MCP result of a program: its result as JSON text (and as `structuredContent`), an
 * error result with the program's error code when it did not complete.
 */
export function programCallResult(result: ProgramResult): CallToolResult {
  const text = JSON.stringify(result);
  if (result.status === 'completed') {
    return {
      content: [{ type: 'text', text }],
      structuredContent: result as unknown as Record<string, unknown>,
    };
  }
  return {
    ...errorResult(result.error?.code ?? 'program_sandbox_failed', text),
    structuredContent: result as unknown as Record<string, unknown>,
  };
}

/**
 * Runs the program of a `tool_program` call in the session: its nested calls through the
 * session's dispatcher with `via: 'program'` and the program's id; the client's
 * cancellation (or the gateway's shutdown) stops it and cancels the calls in flight.
 *
 * @param state - the session
 * @param program - the session's program tool
 * @param request - the client's `tools/call`
 * @param extra - the request's context (progress notifications go through it)
 * @param signal - aborts when the client cancels or the gateway ends the call
 * @returns the program's result; never rejects
 */
export async function callSessionProgram(
  state: SessionState,
  program: ProgramTool,
  request: CallToolRequest,
  extra: Extra,
  signal: AbortSignal,
): Promise<CallToolResult> {
  const progress = programProgress(request, extra);
  const result = await program.run(request.params.arguments, {
    sessionId: state.id,
    signal,
    dispatch: programDispatcher(state, extra, progress),
  });
  await progress.settle();
  return programCallResult(result);
}
