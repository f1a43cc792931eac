import type { ToolMessage } from '@langchain/core/messages';
import { isBaseMessage } from '@langchain/core/messages';
import type { RunnableConfig } from '@langchain/core/runnables';
import type { StructuredToolInterface } from '@langchain/core/tools';
import type { ToolDefinition } from '@tool-search/core';
import { ToolSearchError } from '@tool-search/core';
import type { Dispatcher, DispatcherOptions, DispatchResult } from '@tool-search/hooks';
import { createDispatcher } from '@tool-search/hooks';

/**
 * A place for an approval to suspend the call instead of answering it: LangGraph's
 * `interrupt()` throws to pause the graph, and the dispatcher would take any throw for a
 * refusal. `suspend(reason)` cancels the dispatch and has the tool rethrow `reason`.
 */
export interface CallSuspension {
  /** Cancels the call and has the LangChain tool rethrow `reason` (e.g. a `GraphInterrupt`). */
  suspend(reason: unknown): void;
}

/**
 * What LangChain knows about a call, handed to every guardrail, hook and approval of the
 * dispatcher as typed context (`DispatchContext<LangChainCallContext>`).
 */
export interface LangChainCallContext {
  /** The id of the model's tool call, when LangChain gave one. */
  toolCallId?: string;
  /** The LangChain config of the tool's run (callbacks, configurable, the graph's state). */
  config?: RunnableConfig;
  /** Lets an approval pause the graph (see `createInterruptApproval`). */
  suspension?: CallSuspension;
}

/**
 * The dispatch options of the adapter: {@link DispatcherOptions} of `@tool-search/hooks`
 * (guardrails, hooks, approval, session approvals, timeouts) without `execute`, which is
 * the tools' own, plus the session id (approvals by a person: `createInterruptApproval()` of `@tool-search/langchain/langgraph`).
 */
export interface LangChainDispatchOptions
  extends Omit<DispatcherOptions<LangChainCallContext>, 'execute' | 'resolveTool'> {
  /** The session id: 'allow-session' approvals are remembered under it. */
  sessionId?: string;
}

/** The text of a tool's output for a bridge answer: a ToolMessage's content, anything else as it is. */
export function outputValue(output: unknown): unknown {
  if (isBaseMessage(output)) return (output as ToolMessage).content;
  return output;
}

/**
 * Creates the dispatcher of the LangChain adapter: every call, direct or unwrapped from
 * `tool_call` or made by a program, runs the real tool's own `invoke` with the LangChain
 * config of the call.
 *
 * @param tools - the real tools by name
 * @param definitions - looks up a tool's definition for `ctx.tool`
 * @param options - guardrails, hooks, approval, timeouts
 * @returns the dispatcher
 * @throws `ToolSearchError` `invalid_argument` when the options are malformed
 */
export function createToolsDispatcher(
  tools: ReadonlyMap<string, StructuredToolInterface>,
  definitions: (name: string) => ToolDefinition | undefined,
  options: LangChainDispatchOptions,
): Dispatcher<LangChainCallContext> {
  return createDispatcher<LangChainCallContext>({
    ...(options.guardrails ? { guardrails: options.guardrails } : {}),
    ...(options.hooks ? { hooks: options.hooks } : {}),
    ...(options.approval ? { approval: options.approval } : {}),
    ...(options.sessionApprovals ? { sessionApprovals: options.sessionApprovals } : {}),
    ...(options.timeouts ? { timeouts: options.timeouts } : {}),
    resolveTool: definitions,
    execute: async (call, ctx) => {
      const tool = tools.get(call.name);
      if (tool === undefined) {
        throw new ToolSearchError(
          'tool_failed',
          `The tool '${call.name}' is not among the tools given to withToolSearch, so it cannot run here.`,
          { data: { tool: call.name } },
        );
      }
      const config: RunnableConfig = { ...ctx.config, signal: ctx.signal };
      // A direct call keeps the tool's own ToolMessage (artifacts, status); a call made
      // through the bridge or a program answers with its content.
      if (ctx.via === 'direct' && ctx.toolCallId !== undefined) {
        return tool.invoke(
          { id: ctx.toolCallId, name: call.name, args: call.arguments, type: 'tool_call' },
          config,
        );
      }
      return outputValue(await tool.invoke(call.arguments, config));
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
