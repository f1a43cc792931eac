import type { ToolCall, ToolDefinition } from '@tool-search/core';
import { ToolSearchError } from '@tool-search/core';
import type { Dispatcher, DispatcherOptions, DispatchResult } from '@tool-search/hooks';
import { createDispatcher } from '@tool-search/hooks';
import type { ModelMessage, ToolSet } from 'ai';

/**
 * The execution options the AI SDK hands a tool's `execute` (ai 6 and ai 7 alike): the
 * fields this adapter reads; the rest (the AI SDK's context) is passed on untouched.
 */
export interface AiSdkExecutionOptions {
  /** The id of the tool call. */
  toolCallId: string;
  /** The messages sent to the model in the step that made the call. */
  messages: ModelMessage[];
  /** Aborts the call. */
  abortSignal?: AbortSignal;
}

/**
 * What the AI SDK knows about a call, handed to every guardrail, hook and `execute` of
 * the dispatcher as typed context (`DispatchContext<AiSdkCallContext>`).
 */
export interface AiSdkCallContext {
  /** The AI SDK's id of the tool call. */
  toolCallId: string;
  /** The messages sent to the model in the step that made the call. */
  messages: readonly ModelMessage[];
  /** The AI SDK's execution options, passed on to the tool's own `execute`. */
  executionOptions: AiSdkExecutionOptions;
}

/**
 * The dispatch options of the adapter: {@link DispatcherOptions} of `@tool-search/hooks`
 * (guardrails, hooks, approval, session approvals, timeouts) without `execute`, which is
 * the tools' own, plus the session id (an approval here comes besides the AI SDK's own tool approval).
 */
export interface AiSdkDispatchOptions
  extends Omit<DispatcherOptions<AiSdkCallContext>, 'execute' | 'resolveTool'> {
  /** The session id: 'allow-session' approvals are remembered under it. */
  sessionId?: string;
}

/**
 * Creates the dispatcher of the AI SDK adapter: every call, direct or unwrapped from
 * `tool_call`, runs the real tool's own `execute` with the AI SDK's options.
 *
 * @param tools - the user's tool set (the real tools)
 * @param definitions - looks up a tool's definition for `ctx.tool`
 * @param options - guardrails, hooks, approval, timeouts
 * @returns the dispatcher
 * @throws `ToolSearchError` `invalid_argument` when the options are malformed
 */
export function createToolSetDispatcher(
  tools: ToolSet,
  definitions: (name: string) => ToolDefinition | undefined,
  options: AiSdkDispatchOptions,
): Dispatcher<AiSdkCallContext> {
  return createDispatcher<AiSdkCallContext>({
    ...(options.guardrails ? { guardrails: options.guardrails } : {}),
    ...(options.hooks ? { hooks: options.hooks } : {}),
    ...(options.approval ? { approval: options.approval } : {}),
    ...(options.sessionApprovals ? { sessionApprovals: options.sessionApprovals } : {}),
    ...(options.timeouts ? { timeouts: options.timeouts } : {}),
    resolveTool: definitions,
    execute: (call, ctx) => {
      const tool = Object.hasOwn(tools, call.name) ? tools[call.name] : undefined;
      if (typeof tool?.execute !== 'function') {
        throw new ToolSearchError(
          'tool_failed',
          `The tool '${call.name}' has no execute function in this tool set, so it cannot run here.`,
          { data: { tool: call.name } },
        );
      }
      // The AI SDK's own options (its context, ...) go on as they came, whatever version.
      const run = tool.execute as (input: unknown, options: unknown) => unknown;
      return run.call(tool, call.arguments, { ...ctx.executionOptions, abortSignal: ctx.signal });
    },
  });
}

/**
 * What the model sees of a dispatch: the tool's result when it ran, else an error it can
 * act on, as data (never a thrown exception).
 *
 * @param result - the dispatch result
 * @returns the tool output
 * @throws nothing
 */
export function toolOutput(result: DispatchResult): unknown {
  switch (result.status) {
    case 'ok':
      return result.result;
    case 'denied':
      return { error: result.reason, denied_by: `${result.by.kind} '${result.by.name}'` };
    case 'error':
      return { error: result.error.message, code: result.error.code };
    default:
      return { error: result.reason };
  }
}

/**
 * Runs one call through the dispatcher with the AI SDK's context and maps the result.
 *
 * @param dispatch - the adapter's dispatcher
 * @param call - the real call
 * @param options - the AI SDK's execution options of the tool call
 * @param extra - the route and the tool, as the bridge or the adapter knows them
 * @param failures - told of the outputs of calls that did not succeed (denied, failed)
 * @returns the tool output for the model
 * @throws nothing (the dispatcher never rejects)
 */
export async function dispatchForModel(
  dispatch: Dispatcher<AiSdkCallContext>,
  call: ToolCall,
  options: AiSdkExecutionOptions,
  extra: {
    sessionId?: string;
    via?: 'bridge' | 'direct';
    tool?: ToolDefinition;
  },
  failures?: WeakSet<object>,
): Promise<unknown> {
  const result = await dispatch(call, {
    ...extra,
    toolCallId: options.toolCallId,
    messages: options.messages,
    executionOptions: options,
    ...(options.abortSignal ? { signal: options.abortSignal } : {}),
  });
  const output = toolOutput(result);
  // A denied or failed call's output is an object made here: the caller tells it apart.
  if (result.status !== 'ok' && typeof output === 'object' && output !== null) {
    failures?.add(output);
  }
  return output;
}
