import type { StructuredToolInterface, ToolRunnableConfig } from '@langchain/core/tools';
import type { Assembly, BridgeRefusal } from '@tool-search/bridge';
import {
  assembleTools,
  BRIDGE_TOOL_NAMES,
  bridgeErrors,
  createBridgeTools,
  handleBridgeCall,
  isBridgeToolName,
} from '@tool-search/bridge';
import type { ProgramTool } from '@tool-search/code';
import { TOOL_PROGRAM } from '@tool-search/code';
import type {
  ActivationDecision,
  LearningSessionOptions,
  Ranker,
  TokenCounter,
  ToolCall,
  ToolDefinition,
  ToolSearchConfigInput,
  ToolSearchLogger,
} from '@tool-search/core';
import { createLearningSession, ToolSearchError } from '@tool-search/core';
import type { AuditHook, Dispatcher, DispatchResult } from '@tool-search/hooks';
import { createToolSearchMiddleware, type ToolSearchMiddleware } from './agent-middleware.js';
import type { LangChainCallContext, LangChainDispatchOptions } from './call-dispatch.js';
import { createToolsDispatcher, toolOutput } from './call-dispatch.js';
import { activationMessage, inactiveBridgeAnswer } from './decision-text.js';
import { errorOutput, ownTool, toolCallIdOf, wrapDirect } from './langchain-tool.js';
import type { LangChainProgramOptions } from './program.js';
import { createLangChainProgram, programPolicyOf } from './program.js';
import { runSuspendable } from './suspension.js';
import type { LangChainToolLabels } from './tool-definitions.js';
import { toolDefinitionsFromTools } from './tool-definitions.js';

/**
 * Where the adapter reports its activation decision, once per setup: `warn` when
 * deferrable tools stay in the model's list because they are below the threshold (the
 * bridge is then absent), `info` (when the logger has it) for every other decision.
 * `console` is one.
 */
export interface LangChainLogger extends ToolSearchLogger {
  /** Receives the decision when nothing is wrong. */
  info?(message: string): void;
}

/** Options of {@link withToolSearch}. */
export interface WithToolSearchOptions extends LangChainToolLabels, LangChainDispatchOptions {
  /**
   * The tool search config, in any form `parseToolSearchConfig` accepts.
   * @defaultValue the defaults (`auto`, 10% of the context window)
   */
  config?: ToolSearchConfigInput;
  /** The model's context window in tokens; unknown means a 20,000-token threshold. */
  contextWindow?: number;
  /** The token counter of the estimates. @defaultValue `charsPerTokenCounter` */
  counter?: TokenCounter;
  /** The ranker of the catalog. @defaultValue core's default (BM25F) */
  ranker?: Ranker;
  /**
   * Learning from use: `{ learner, profile?, token? }` with a learner of
   * `createSearchLearner()` (`@tool-search/core`) kept across conversations. Searches
   * then rank with what the profile learned, and a successful call of a tool a search
   * returned records a pair.
   * @defaultValue none: nothing is learned
   */
  learning?: LearningSessionOptions;
  /**
   * Programs over tools: adds `tool_program` (`@tool-search/code`), whose nested calls go
   * through this setup's dispatcher with `via: 'program'`. `true` takes the defaults
   * (programs may call read-only tools). Close its workers with `setup.program.close()`.
   * @defaultValue none: no `tool_program`
   */
  program?: LangChainProgramOptions | true;
  /** Where the activation decision is reported, once. @defaultValue `console` */
  logger?: LangChainLogger;
}

/** What {@link withToolSearch} returns. */
export interface ToolSearchSetup {
  /**
   * The tools to give the agent (`createAgent`, `createReactAgent`, `model.bindTools` and a
   * `ToolNode`): the visible tools and the bridge tools while active, every tool otherwise;
   * each runs through {@link ToolSearchSetup.dispatch}.
   */
  tools: StructuredToolInterface[];
  /** The activation decision, with its reason and numbers. */
  decision: ActivationDecision;
  /**
   * Tools for the executor only (a `ToolNode` of your own graph), never for the model:
   * while active, each deferred tool by its own name (routed as `tool_call` routes it);
   * while inactive, the bridge tools, answering with the reason tool search is off.
   */
  fallbackTools: StructuredToolInterface[];
  /**
   * The same fallback for langchain's `createAgent`: `middleware: [search.middleware]`
   * answers a name the agent does not hold from {@link ToolSearchSetup.fallbackTools}.
   */
  middleware: ToolSearchMiddleware;
  /** The one dispatcher every real call goes through. */
  dispatch: Dispatcher<LangChainCallContext>;
  /** The assembly: the model-visible definitions, the deferred tools and the catalog. */
  assembly: Assembly;
  /** The program tool, with the `program` option. */
  program?: ProgramTool;
}

function reservedNames(program: boolean): readonly string[] {
  return program ? [...BRIDGE_TOOL_NAMES, TOOL_PROGRAM] : [...BRIDGE_TOOL_NAMES];
}

function auditHookOf(
  hooks: readonly object[] | undefined,
): Pick<AuditHook, 'recordRefusal'> | undefined {
  return hooks?.find(
    (hook): hook is Pick<AuditHook, 'recordRefusal'> =>
      typeof (hook as Partial<AuditHook>).recordRefusal === 'function',
  );
}

function logDecision(logger: LangChainLogger, decision: ActivationDecision, deferred: number) {
  const { level, message } = activationMessage(decision, deferred);
  try {
    if (level === 'warn') logger.warn(message);
    else logger.info?.(message);
  } catch {
    // A logger's own failure is not the caller's.
  }
}

/**
 * Tool search for LangChain.js and LangGraph: your tools with the bridge (`tool_search`,
 * `tool_describe`, `tool_call`, and `tool_program` with `program`) as LangChain tools.
 * While the deferrable tools reach the threshold, the model sees the visible tools and the
 * bridge; otherwise it sees every tool, and the decision and its reason are in `decision`
 * and logged once. Every real call, direct, unwrapped from `tool_call` or made by a
 * program, goes through one dispatcher (`createDispatcher` of `@tool-search/hooks`) on the
 * real name with the final arguments: guardrails, hooks (audit), the approval
 * (`createInterruptApproval` of `@tool-search/langchain/langgraph` asks a person through
 * LangGraph's `interrupt()`), learning.
 *
 * @example
 * ```ts
 * const search = withToolSearch(tools, { core: ['read_file'], contextWindow: 128_000 });
 * const agent = createAgent({ model, tools: search.tools });
 * ```
 *
 * @param tools - your LangChain tools (`tool()`, `DynamicStructuredTool`, MCP tools)
 * @param options - activation, labels, dispatch (guardrails, hooks, approval), learning,
 * programs, logger
 * @returns the tools for the agent, the decision, the fallback tools, the dispatcher and
 * the assembly
 * @throws `ToolSearchError` `invalid_argument` when a tool takes a name the bridge reserves
 * or two tools share a name, or the dispatch options are malformed;
 * `invalid_tool_definition` when a tool's schema cannot be converted
 */
export function withToolSearch(
  tools: readonly StructuredToolInterface[],
  options: WithToolSearchOptions = {},
): ToolSearchSetup {
  const programOptions = options.program === true ? {} : options.program;
  for (const name of reservedNames(programOptions !== undefined)) {
    if (tools.some((tool) => tool.name === name)) {
      throw new ToolSearchError(
        'invalid_argument',
        `withToolSearch: a tool is named '${name}', a name the bridge reserves. Rename it.`,
        { data: { tool: name } },
      );
    }
  }
  const definitions = toolDefinitionsFromTools(tools, options);
  const byName = new Map(definitions.map((definition) => [definition.name, definition]));
  const originals = new Map(tools.map((tool) => [tool.name, tool]));
  const toolOf = (name: string) => byName.get(name);
  const policy = programOptions ? programPolicyOf(programOptions) : undefined;
  const dispatch = createToolsDispatcher(originals, toolOf, {
    ...options,
    ...(policy ? { guardrails: [policy, ...(options.guardrails ?? [])] } : {}),
  });
  const learning = options.learning ? createLearningSession(options.learning) : undefined;
  const sessionOf = () => (options.sessionId !== undefined ? { sessionId: options.sessionId } : {});
  const programCaller =
    programOptions && policy
      ? createLangChainProgram({
          options: programOptions,
          policy,
          dispatch,
          tools: definitions,
          ...(options.hooks ? { hooks: options.hooks } : {}),
          ...(options.ranker ? { ranker: options.ranker } : {}),
          ...sessionOf(),
        })
      : undefined;
  const assembly = assembleTools({
    tools: definitions,
    ...(options.config !== undefined ? { config: options.config } : {}),
    ...(options.contextWindow !== undefined ? { contextWindow: options.contextWindow } : {}),
    ...(options.ranker ? { ranker: options.ranker } : {}),
    ...(options.counter ? { counter: options.counter } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    stableDescriptions: true,
    ...(learning ? { learning } : {}),
    ...(programCaller ? { program: programCaller.program } : {}),
  });
  logDecision(options.logger ?? console, assembly.decision, assembly.deferred.length);

  // The outputs of denied and failed calls: learning must not count them as successes.
  const failures = new WeakSet<object>();
  const succeeded = (output: unknown) =>
    typeof output !== 'object' || output === null || !failures.has(output);
  const run = async (
    call: ToolCall,
    config: ToolRunnableConfig,
    extra: { via: 'bridge' | 'direct'; tool?: ToolDefinition },
  ): Promise<unknown> => {
    const toolCallId = toolCallIdOf(config);
    const result: DispatchResult = await runSuspendable(config.signal, (suspension, signal) =>
      dispatch(call, {
        ...sessionOf(),
        ...extra,
        config,
        suspension,
        signal,
        ...(toolCallId !== undefined ? { toolCallId } : {}),
      }),
    );
    const output = toolOutput(result);
    if (result.status !== 'ok' && typeof output === 'object' && output !== null) {
      failures.add(output);
    }
    return output;
  };
  const refusal = (answer: object) => {
    failures.add(answer);
    return answer;
  };
  const audit = auditHookOf(options.hooks);
  const answer = async (name: string, input: unknown, config: ToolRunnableConfig) => {
    const toolCallId = toolCallIdOf(config);
    const call = {
      ...(toolCallId !== undefined ? { id: toolCallId } : {}),
      name,
      arguments: input,
    };
    const answered = await handleBridgeCall(
      assembly,
      call,
      (real, bridged) =>
        // tool_program is a bridge tool here too: a program is not a tool that tool_call runs.
        real.name === TOOL_PROGRAM
          ? refusal({
              error: bridgeErrors.bridgeTool(TOOL_PROGRAM),
              code: 'bridge_tool',
              name: TOOL_PROGRAM,
            })
          : run(real, config, { via: bridged.via, tool: bridged.tool }),
      {
        refuseUnknownNames: true,
        succeeded,
        ...(audit
          ? {
              onRefused: (refusal: BridgeRefusal) =>
                audit.recordRefusal({
                  tool: refusal.name,
                  reason: refusal.error,
                  via: refusal.via,
                  ...(refusal.id !== undefined ? { callId: refusal.id } : {}),
                  ...sessionOf(),
                }),
            }
          : {}),
      },
    );
    return answered;
  };

  const direct = (tool: StructuredToolInterface) =>
    wrapDirect(tool, async (input, config) => {
      const toolCallId = toolCallIdOf(config);
      const definition = byName.get(tool.name);
      const output = await run(
        {
          ...(toolCallId !== undefined ? { id: toolCallId } : {}),
          name: tool.name,
          arguments: (input ?? {}) as Record<string, unknown>,
        },
        config,
        { via: 'direct', ...(definition ? { tool: definition } : {}) },
      );
      assembly.learning?.recordCall(tool.name, succeeded(output));
      return succeeded(output) ? output : errorOutput(output, tool.name, toolCallId);
    });

  const visible: StructuredToolInterface[] = [];
  for (const definition of assembly.tools) {
    if (definition.name === TOOL_PROGRAM && programCaller) visible.push(programCaller.tool);
    else if (isBridgeToolName(definition.name)) {
      visible.push(ownTool(definition, (input, config) => answer(definition.name, input, config)));
    } else {
      const original = originals.get(definition.name);
      if (original) visible.push(direct(original));
    }
  }
  const fallbackTools = assembly.activated
    ? assembly.deferred.map((definition) =>
        // Never shown to a model: an open schema lets the bridge check and repair the
        // arguments (e.g. "2" for an integer) as it does for tool_call.
        ownTool({ ...definition, inputSchema: { type: 'object' } }, (input, config) =>
          answer(definition.name, input, config),
        ),
      )
    : createBridgeTools({ stableDescriptions: true }).map((definition) =>
        ownTool(definition, async () => inactiveBridgeAnswer(definition.name, assembly.decision)),
      );
  return {
    tools: visible,
    decision: assembly.decision,
    fallbackTools,
    middleware: createToolSearchMiddleware(fallbackTools),
    dispatch,
    assembly,
    ...(programCaller ? { program: programCaller.program } : {}),
  };
}
