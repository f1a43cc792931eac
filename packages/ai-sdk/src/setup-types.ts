import type { Assembly } from '@tool-search/bridge';
import type { ProgramTool } from '@tool-search/code';
import type { ActivationDecision, LearningSession } from '@tool-search/core';
import type { Dispatcher } from '@tool-search/hooks';
import type { ModelMessage, ToolSet } from 'ai';
import type { AiSdkCallContext } from './call-dispatch.js';
import type { StepOptions, StepSettings } from './step-merge.js';
import type { ApprovalStatus, ToolApprovalRequest } from './tool-approval.js';

/** A tool call as the AI SDK hands it to `repairToolCall`: the fields this adapter reads. */
export interface RepairableToolCall {
  toolCallId: string;
  toolName: string;
  input: string;
}

/** The `repairToolCall` of `generateText` / `streamText`, in the shape both ai 6 and ai 7 call. */
export type RepairToolCall = <T extends RepairableToolCall>(options: {
  toolCall: T;
  error: unknown;
  messages: ModelMessage[];
}) => Promise<T | null>;

/** What `withToolSearch` returns: spread `tools`, `prepareStep` and `repairToolCall` into `generateText` or `streamText`. */
export interface ToolSearchSetup {
  /**
   * Your tools, each `execute` running through the dispatcher (guardrails, hooks and
   * approvals on the real name), plus `tool_search`, `tool_describe` and `tool_call`.
   */
  tools: ToolSet;
  /**
   * The activation decision of the conversation's first step (no tool loaded yet), with
   * its reason (`below-threshold`, `above-threshold`, `disabled`, ...) and numbers: whether
   * the deferrable tools are behind `tool_search`, or every tool is sent as it is. It is
   * made when the setup is (the tool set's schemas are converted asynchronously, hence the
   * promise) and reported once through the `logger` option. It rejects as the first step
   * would, when a tool's schema cannot be converted.
   *
   * @example
   * ```ts
   * const { reason, deferrableTokens, thresholdTokens } = await search.decision;
   * ```
   */
  decision: Promise<ActivationDecision>;
  /**
   * Assembles the tools of each step and returns them as `activeTools`: the visible tools,
   * the tools loaded by `tool_describe` earlier in the conversation and the bridge, when
   * the deferrable tools reach the threshold; every tool in scope when they do not.
   */
  prepareStep: (options: StepOptions) => Promise<StepSettings & { activeTools: string[] }>;
  /**
   * Routes a direct call of a deferred tool (which the AI SDK rejects with
   * `AI_NoSuchToolError` before any tool runs) through the bridge, like `tool_call`; a
   * name out of scope or unknown gets the bridge's answer, as data the model can act on.
   * Pass it as `experimental_repairToolCall`: ai 6 reads only that name, ai 7 both.
   */
  repairToolCall: RepairToolCall;
  /**
   * The same function as `repairToolCall`, under the name ai 6 reads: spreading the
   * setup into `generateText` (`{ model, ...search, prompt }`) then works on ai 6 and 7.
   */
  experimental_repairToolCall: RepairToolCall;
  /**
   * For AI SDK 7's `generateText({ toolApproval })`: your `toolApproval` option, deciding a
   * call through `tool_call` as the real calls it stands for (their names, their arguments
   * after the bridge's repair; a batch denied when any call is, asked when any needs it),
   * and falling back to the real tool's `needsApproval`.
   */
  toolApproval: (request: ToolApprovalRequest) => Promise<ApprovalStatus>;
  /**
   * With the `learning` option: the conversation's learning session. Pairs are recorded
   * as the tools run, so nothing is to be flushed with the in-memory learner; with a
   * store that writes asynchronously (Redis), `await search.learning?.flush()` waits for
   * the writes before a search of another session must see them.
   */
  learning?: LearningSession;
  /** The dispatcher every call goes through. */
  dispatch: Dispatcher<AiSdkCallContext>;
  /**
   * With the `program` option: the program tool (`warm()` its workers ahead of the first
   * program, `close()` them when you are done).
   */
  program?: ProgramTool;
  /**
   * With the `program` option, for AI SDK 7's `generateText({ experimental_toolCallers })`
   * (spread with the rest): every tool of the set may be called directly and by
   * `tool_program`. AI SDK 6 ignores it (`tool_program` is then a plain tool). Its type is
   * opaque (the AI SDK's own type admits only callers it sees in a typed tool set): pass it
   * on as it is.
   */
  experimental_toolCallers?: Readonly<Record<string, readonly never[]>>;
  /**
   * The assembly of a step of the conversation.
   * @param messages - the conversation so far
   */
  assemble(messages?: readonly ModelMessage[]): Promise<Assembly>;
}
