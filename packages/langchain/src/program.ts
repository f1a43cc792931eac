import type { StructuredToolInterface } from '@langchain/core/tools';
import type { ProgramLimits, ProgramPolicy, ProgramTool } from '@tool-search/code';
import { createProgramPolicy, createProgramTool } from '@tool-search/code';
import type { Ranker, ToolCall, ToolDefinition } from '@tool-search/core';
import type { AuditHook, Dispatcher, DispatchResult } from '@tool-search/hooks';
import type { LangChainCallContext } from './call-dispatch.js';
import { ownTool, toolCallIdOf } from './langchain-tool.js';

/** The `program` option of `withToolSearch`: `tool_program` of `@tool-search/code` as a LangChain tool. */
export interface LangChainProgramOptions {
  /** Changes to the default limits (`DEFAULT_PROGRAM_LIMITS` of `@tool-search/code`). */
  limits?: Partial<ProgramLimits>;
  /**
   * Which tools programs may call: it filters what `tools.search` and `tools.describe`
   * show and guards every nested call (it is put first among the dispatcher's guardrails).
   * @defaultValue `createProgramPolicy()`: tools marked `readOnlyHint: true`
   */
  policy?: ProgramPolicy;
  /** The ranker of `tools.search` inside programs. @defaultValue the setup's `ranker` */
  ranker?: Ranker;
  /** Workers kept warm. @defaultValue 2 */
  poolSize?: number;
  /** Programs running at once. @defaultValue 4 */
  maxConcurrentPrograms?: number;
  /** Each worker's V8 heap limit in MiB. @defaultValue 96 */
  workerHeapMb?: number;
}

/** What {@link createLangChainProgram} needs of the setup. */
export interface LangChainProgramInput {
  options: LangChainProgramOptions;
  policy: ProgramPolicy;
  /** The setup's dispatcher (the program policy first among its guardrails). */
  dispatch: Dispatcher<LangChainCallContext>;
  /** The session's tools a program may reach. */
  tools: readonly ToolDefinition[];
  hooks?: readonly object[];
  ranker?: Ranker;
  sessionId?: string;
}

function auditOf(hooks: readonly object[] | undefined) {
  const audit = hooks?.find(
    (hook) => typeof (hook as Partial<AuditHook>).recordRefusal === 'function',
  );
  return audit === undefined ? {} : { audit: audit as Pick<AuditHook, 'recordRefusal'> };
}

/**
 * The program tool of a setup: every nested call goes through the setup's dispatcher with
 * `via: 'program'`, the program's id and the LangChain config of the `tool_program` call.
 *
 * @param input - see {@link LangChainProgramInput}
 * @returns the program tool and its LangChain tool
 * @throws `ToolSearchError` `invalid_argument` when a limit is unknown or not a positive number
 */
export function createLangChainProgram(input: LangChainProgramInput): {
  program: ProgramTool;
  tool: StructuredToolInterface;
} {
  const { options } = input;
  let sequence = 0;
  // Each nested call gets an id: the audit records it as the call's id.
  const dispatch = (call: ToolCall, context?: object): Promise<DispatchResult> => {
    const ctx = (context ?? {}) as LangChainCallContext & { programId?: string };
    sequence += 1;
    return input.dispatch({ ...call, id: `${ctx.programId ?? 'program'}:${sequence}` }, ctx);
  };
  const ranker = options.ranker ?? input.ranker;
  const program = createProgramTool({
    tools: input.tools,
    dispatch,
    policy: input.policy,
    ...auditOf(input.hooks),
    ...(options.limits ? { limits: options.limits } : {}),
    ...(ranker ? { ranker } : {}),
    ...(options.poolSize !== undefined ? { poolSize: options.poolSize } : {}),
    ...(options.maxConcurrentPrograms !== undefined
      ? { maxConcurrentPrograms: options.maxConcurrentPrograms }
      : {}),
    ...(options.workerHeapMb !== undefined ? { workerHeapMb: options.workerHeapMb } : {}),
  });
  const tool = ownTool(program.definition, (source, config) => {
    const toolCallId = toolCallIdOf(config);
    const context: LangChainCallContext = { config, ...(toolCallId ? { toolCallId } : {}) };
    return program.run(source, {
      dispatchContext: context as unknown as Record<string, unknown>,
      ...(config.signal ? { signal: config.signal } : {}),
      ...(input.sessionId !== undefined ? { sessionId: input.sessionId } : {}),
    });
  });
  return { program, tool };
}

/** The program policy of the options: the given one, or read-only tools. */
export function programPolicyOf(options: LangChainProgramOptions): ProgramPolicy {
  return options.policy ?? createProgramPolicy();
}
