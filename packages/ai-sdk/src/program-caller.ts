import type { ProgramLimits, ProgramPolicy, ProgramTool } from '@tool-search/code';
import { createProgramPolicy, createProgramTool, TOOL_PROGRAM } from '@tool-search/code';
import type { Ranker, ToolCall, ToolDefinition } from '@tool-search/core';
import type { ApprovalAdapter, AuditHook, Dispatcher, DispatchResult } from '@tool-search/hooks';
import type { ModelMessage, Tool, ToolSet } from 'ai';
import { ownTool } from './ai-tool.js';
import type { AiSdkCallContext, AiSdkExecutionOptions } from './call-dispatch.js';

/**
 * The `program` option of `withToolSearch`: `tool_program` (`@tool-search/code`) as an AI
 * SDK tool, and on AI SDK 7 as a local tool caller.
 */
export interface AiSdkProgramOptions {
  /** Changes to the default limits (`DEFAULT_PROGRAM_LIMITS` of `@tool-search/code`). */
  limits?: Partial<ProgramLimits>;
  /**
   * Which tools programs may call: it filters what `tools.search` and `tools.describe`
   * show and guards every nested call (it is put first among the dispatcher's guardrails).
   * @defaultValue `createProgramPolicy()`: tools marked `readOnlyHint: true`
   */
  policy?: ProgramPolicy;
  /**
   * Who is asked, while the program waits, about a nested call that the tool's
   * `needsApproval` (or AI SDK 7's `toolApproval`) sends to the user, e.g.
   * `createCallbackApproval` of `@tool-search/hooks`. Without it such a call is denied
   * (inside the program it throws): a program cannot wait for the AI SDK's own approval
   * round trip.
   */
  approval?: ApprovalAdapter;
  /** The ranker of `tools.search` inside programs. @defaultValue the setup's `ranker` */
  ranker?: Ranker;
  /** Workers kept warm. @defaultValue 2 */
  poolSize?: number;
  /** Programs running at once. @defaultValue 4 */
  maxConcurrentPrograms?: number;
  /** Each worker's V8 heap limit in MiB. @defaultValue 96 */
  workerHeapMb?: number;
}

/** The tools a program of one step may reach. */
export interface ProgramReach {
  /** The session's tools in scope (the program tool itself and the bridge excluded). */
  tools: readonly ToolDefinition[];
  /** The names of those deferred in the step: a program reaches them as `tool_call` does. */
  deferred: ReadonlySet<string>;
}

/** What {@link createProgramCaller} needs of the setup. */
export interface ProgramCallerInput {
  options: AiSdkProgramOptions;
  /** The setup's dispatcher. */
  dispatch: Dispatcher<AiSdkCallContext>;
  /** The tools in reach for the messages of a step. */
  reach: (messages: readonly ModelMessage[] | undefined) => Promise<ProgramReach>;
  /** The setup's hooks: one with `recordRefusal` hears of names refused before dispatch. */
  hooks?: readonly object[];
  ranker?: Ranker;
  sessionId?: string;
  /** Told of every run (the setup's wiring check). */
  onRun?: () => void;
  /** Told of every nested call's id once its dispatch settled. */
  settle?: (callId: string) => void;
}

/** The program tool of a setup. */
export interface ProgramCaller {
  program: ProgramTool;
  policy: ProgramPolicy;
  /** `tool_program` for the tool set, with its AI SDK 7 `experimental_toolCaller`. */
  tool: Tool;
}

/** The marker AI SDK 7 reads on a tool that calls other tools (`experimental_toolCaller`). */
export interface LocalToolCaller {
  type: 'local';
  bind: (tools: ToolSet) => Tool;
}

function auditOf(hooks: readonly object[] | undefined) {
  const audit = hooks?.find(
    (hook) => typeof (hook as Partial<AuditHook>).recordRefusal === 'function',
  );
  return audit === undefined ? {} : { audit: audit as Pick<AuditHook, 'recordRefusal'> };
}

/**
 * Creates the program tool of a `withToolSearch` setup: `tool_program` runs in the
 * QuickJS sandbox of `@tool-search/code`, and every nested call goes through the setup's
 * dispatcher with `via: 'program'`, the program's id, and the AI SDK context of the
 * `tool_program` call (its `toolCallId`, the messages). On AI SDK 7 the tool is also a
 * local tool caller: bound to the tools `experimental_toolCallers` gives it, a program
 * reaches those and the step's deferred tools.
 *
 * @param input - see {@link ProgramCallerInput}
 * @returns the program tool, its policy and the AI SDK tool
 * @throws `ToolSearchError` `invalid_argument` when a limit is unknown or not a positive number
 */
export function createProgramCaller(input: ProgramCallerInput): ProgramCaller {
  const { options } = input;
  const policy = options.policy ?? createProgramPolicy();
  let sequence = 0;
  // Each nested call gets an id (the approval steps tell calls apart by it; the audit
  // records it as the call's id).
  const dispatch = async (call: ToolCall, context?: object): Promise<DispatchResult> => {
    const ctx = (context ?? {}) as AiSdkCallContext & { programId?: string };
    sequence += 1;
    const id = `${ctx.programId ?? 'program'}:${sequence}`;
    try {
      return await input.dispatch({ ...call, id }, ctx);
    } finally {
      input.settle?.(id);
    }
  };
  const ranker = options.ranker ?? input.ranker;
  const program = createProgramTool({
    tools: () => [],
    dispatch,
    policy,
    ...auditOf(input.hooks),
    ...(options.limits ? { limits: options.limits } : {}),
    ...(ranker ? { ranker } : {}),
    ...(options.poolSize !== undefined ? { poolSize: options.poolSize } : {}),
    ...(options.maxConcurrentPrograms !== undefined
      ? { maxConcurrentPrograms: options.maxConcurrentPrograms }
      : {}),
    ...(options.workerHeapMb !== undefined ? { workerHeapMb: options.workerHeapMb } : {}),
  });
  const run = async (
    source: unknown,
    execution: AiSdkExecutionOptions,
    narrow?: ReadonlySet<string>,
  ) => {
    input.onRun?.();
    const reach = await input.reach(execution.messages);
    const tools = narrow
      ? reach.tools.filter((tool) => narrow.has(tool.name) || reach.deferred.has(tool.name))
      : reach.tools;
    const context: AiSdkCallContext = {
      toolCallId: execution.toolCallId,
      messages: execution.messages,
      executionOptions: execution,
    };
    return program.run(source, {
      tools,
      dispatchContext: context as unknown as Record<string, unknown>,
      ...(execution.abortSignal ? { signal: execution.abortSignal } : {}),
      ...(input.sessionId !== undefined ? { sessionId: input.sessionId } : {}),
    });
  };
  const caller: LocalToolCaller = {
    type: 'local',
    // AI SDK 7 binds the caller per step to the tools that name it as a caller.
    bind: (callees) => {
      const names = new Set(Object.keys(callees).filter((name) => name !== TOOL_PROGRAM));
      return ownTool(program.definition, (source, execution) => run(source, execution, names));
    },
  };
  // As AI SDK 7's experimental_toolCaller() marks a tool: not enumerable, so a copy of the
  // tool made by spreading it is a plain tool again.
  const tool = Object.defineProperty(
    ownTool(program.definition, (source, execution) => run(source, execution)),
    'experimental_toolCaller',
    { value: caller },
  );
  return {
    program,
    policy,
    tool,
  };
}
