import type { Assembly } from '@tool-search/bridge';
import {
  assembleTools,
  BRIDGE_TOOL_NAMES,
  createAssemblyCache,
  createBridgeTools,
  createSearchGuard,
  TOOL_CALL,
  TOOL_DESCRIBE,
  TOOL_SEARCH,
} from '@tool-search/bridge';
import { createProgramPolicy, TOOL_PROGRAM } from '@tool-search/code';
import type { LearningSessionOptions, Ranker, ToolCall, ToolDefinition } from '@tool-search/core';
import { createLearningSession, ToolSearchError } from '@tool-search/core';
import { scopeTools } from '@tool-search/toolsets';
import type { ModelMessage, Tool, ToolSet } from 'ai';
import { NoSuchToolError } from 'ai';
import type { ActivationOptions } from './activation.js';
import { type NeedsApproval, ownTool } from './ai-tool.js';
import {
  type AiSdkDispatchOptions,
  type AiSdkExecutionOptions,
  createToolSetDispatcher,
  dispatchForModel,
} from './call-dispatch.js';
import { answerModelCall, finalCalls, modelCall } from './call-resolution.js';
import { loadedToolNames } from './loaded-tools.js';
import { createProgramApproval } from './program-approval.js';
import {
  type AiSdkProgramOptions,
  createProgramCaller,
  type ProgramCaller,
} from './program-caller.js';
import { programDispatchOptions, toolCallersOf } from './program-wiring.js';
import { compactSearchAnswer } from './search-answer.js';
import type { RepairToolCall, ToolSearchSetup } from './setup-types.js';
import {
  type AiSdkLogger,
  createOnceWarner,
  mergeActiveTools,
  type StepOptions,
  type UserPrepareStep,
} from './step-merge.js';
import {
  type ApprovalStatus,
  createBridgeToolApproval,
  type ToolApprovalConfig,
  type ToolApprovalRequest,
  toolNeedsApproval,
} from './tool-approval.js';
import {
  isFunctionTool,
  type ToolSetLabels,
  toolDefinitionsFromToolSet,
} from './tool-set-definitions.js';

/** Options of {@link withToolSearch}. */
export interface WithToolSearchOptions
  extends ActivationOptions,
    ToolSetLabels,
    AiSdkDispatchOptions {
  /** The ranker of the catalog. @defaultValue core's default (BM25F) */
  ranker?: Ranker;
  /**
   * Learning from use (see `createLearningSession` of `@tool-search/core`): `{ learner,
   * profile?, token? }` with a learner of `createSearchLearner()` (`@tool-search/core`)
   * that you keep across conversations. The searches then rank with what the profile
   * learned, and a successful call of a tool a search returned records a pair.
   * @defaultValue none: nothing is learned
   */
  learning?: LearningSessionOptions;
  /**
   * Programs over tools: adds `tool_program` (`@tool-search/code`), whose program runs in
   * a QuickJS sandbox and whose every nested call goes through this setup's resolution and
   * dispatcher with `via: 'program'` (guardrails, hooks, your `approval`, and a tool's
   * `needsApproval` / AI SDK 7 `toolApproval` on the arguments that run, each call on its
   * own). On AI SDK 7 the tool is also a local tool caller (see the returned
   * `experimental_toolCallers`); on AI SDK 6 it is a tool. `true` takes the defaults:
   * programs may call read-only tools. Close the workers with `setup.program.close()`.
   * @defaultValue none: no `tool_program`
   */
  program?: AiSdkProgramOptions | true;
  /**
   * Your own repair, asked about every call that is not a call of an unknown or deferred
   * tool name (those the bridge answers).
   */
  repairToolCall?: RepairToolCall;
  /**
   * AI SDK 7's `toolApproval` (per tool name, or a function), to be seen through
   * `tool_call`: pass the returned `toolApproval` to `generateText` instead.
   */
  toolApproval?: ToolApprovalConfig;
  /**
   * Your own `prepareStep`: give it here, not to `generateText`, and the returned
   * `prepareStep` runs it every step and merges: its settings (model, toolChoice,
   * system, ...) pass through, and its `activeTools` narrow the visible tools of the step
   * (the bridge tools stay while tools are deferred).
   */
  prepareStep?: UserPrepareStep;
  /**
   * The tools this conversation may use at all (the `activeTools` you would give
   * `generateText`): the others are neither sent nor searchable. Give it here; a
   * `generateText({ activeTools })` would be replaced by the returned `prepareStep`'s.
   */
  activeTools?: readonly string[];
  /**
   * Where misuse is reported, once per setup: a tool ran but `prepareStep` never did
   * (every tool then goes out on every step, and the bridge adds three more).
   * @defaultValue `console`
   */
  logger?: AiSdkLogger;
}

export type { RepairableToolCall, RepairToolCall, ToolSearchSetup } from './setup-types.js';

const ASSEMBLY_MEMO = 32;
const ROUTED_MEMO = 1_000;

function parsedInput(input: string): unknown {
  if (input.trim() === '') return {};
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}

/**
 * Tool search for AI SDK 6, and for models without deferred loading: your tool set with
 * the three bridge tools, assembled per step. The model sees the visible tools and
 * `tool_search` / `tool_describe` / `tool_call` while the deferrable tools reach the
 * threshold; a tool it loads with `tool_describe` joins its tools from the next step on
 * (so its later calls are plain calls of the real tool). Every call, direct or through
 * `tool_call`, goes through one dispatcher (`createDispatcher` of `@tool-search/hooks`)
 * on the real name; a deferred tool called by its own name is routed, not rejected; and
 * a tool's own `needsApproval` (the AI SDK's tool approval, ai 6 and 7) and AI SDK 7's
 * `toolApproval` (through the returned `toolApproval`) decide a call through `tool_call`
 * on the real calls it stands for, with the arguments that will run: the bridge's
 * resolution (names checked, arguments repaired, `"5000"` to `5000` by the schema, bad
 * ones refused) is computed once for the question and the same way again to run, for a
 * single `tool_call`, each call of a `calls` batch (the batch needs approval when any of
 * its calls does) and a routed direct call alike. A refused call runs nothing and asks
 * nothing: the model gets the refusal as data.
 *
 * @example
 * ```ts
 * const search = withToolSearch(tools, {
 *   core: ['read_file'], // built-in tools: never deferred
 *   contextWindow: 128_000,
 *   hooks: [createAuditHook(log)],
 *   prepareStep: myPrepareStep, // yours, merged with ours (not given to generateText)
 * });
 * const result = await generateText({
 *   model,
 *   ...search, // tools, prepareStep, experimental_repairToolCall (ai 6) and repairToolCall (ai 7)
 *   stopWhen: stepCountIs(10),
 *   prompt: 'Open an issue about the failing build',
 * });
 * ```
 *
 * @param tools - your AI SDK tool set
 * @param options - activation, labels, scope, dispatch (guardrails, hooks, approval)
 * @returns the tools, `prepareStep`, `repairToolCall` (also as
 * `experimental_repairToolCall`), `toolApproval` (AI SDK 7), the dispatcher and `assemble`;
 * with `program`, also `program` and `experimental_toolCallers`
 * @throws `ToolSearchError` `invalid_argument` when the dispatch options or `toolApproval`
 * are malformed or the tool set already has a tool named `tool_search`, `tool_describe`
 * or `tool_call` (or `tool_program`, with the `program` option), or a program limit is
 * unknown or not a positive number;
 * `prepareStep` rejects with `invalid_tool_definition` when a tool's schema cannot be
 * converted
 */
export function withToolSearch(
  tools: ToolSet,
  options: WithToolSearchOptions = {},
): ToolSearchSetup {
  const programOptions = options.program === true ? {} : options.program;
  for (const name of programOptions ? [...BRIDGE_TOOL_NAMES, TOOL_PROGRAM] : BRIDGE_TOOL_NAMES) {
    if (Object.hasOwn(tools, name)) {
      throw new ToolSearchError(
        'invalid_argument',
        `withToolSearch: the tool set already has a tool named '${name}', a name the bridge reserves. Rename it, or leave AI SDK 7's toolSearch() out of a tool set given to withToolSearch (use one route, not both).`,
        { data: { tool: name } },
      );
    }
  }
  let definitions: Promise<Map<string, ToolDefinition>> | undefined;
  const definitionsOf = () => {
    definitions ??= toolDefinitionsFromToolSet(tools, options).then(
      (list) => new Map(list.map((tool) => [tool.name, tool])),
    );
    return definitions;
  };
  let known = new Map<string, ToolDefinition>();
  // With programs on, the dispatcher's guardrails start with the program policy and its
  // approval applies the AI SDK's policy to nested calls (see program-wiring.ts).
  let programCaller: ProgramCaller | undefined;
  const programPolicy = programOptions
    ? (programOptions.policy ?? createProgramPolicy())
    : undefined;
  const programApproval = programOptions
    ? createProgramApproval({
        verdict: (call, context) => programCallVerdict(call, context),
        ...(programOptions.approval ? { ask: programOptions.approval } : {}),
        ...(options.approval ? { approval: options.approval } : {}),
      })
    : undefined;
  const dispatch = createToolSetDispatcher(
    tools,
    (name) => known.get(name),
    programPolicy && programApproval
      ? programDispatchOptions(options, programPolicy, programApproval)
      : options,
  );
  const assemblies = new Map<string, Assembly>();
  // One session: one guard against runaway searches and one assembly cache, whichever
  // set of loaded tools an assembly was made for.
  const searchGuard = createSearchGuard();
  const cache = createAssemblyCache();
  const learning = options.learning ? createLearningSession(options.learning) : undefined;
  // Calls the repair routed: their tool_call execution is a direct call of the real tool.
  const routed = new Set<string>();
  const providerTools = Object.keys(tools).filter((name) => !isFunctionTool(tools[name]));

  // The session's tools: those of its toolsets, within your activeTools.
  const inScope = () => {
    const allowed = options.activeTools ? new Set(options.activeTools) : undefined;
    const all = [...known.values()].filter((tool) => allowed?.has(tool.name) ?? true);
    return options.scope ? scopeTools(all, options.scope, options.registry) : all;
  };
  const assemble = async (messages?: readonly ModelMessage[]): Promise<Assembly> => {
    known = await definitionsOf();
    const loaded = loadedToolNames(messages);
    const key = loaded.join('\u0000');
    const memo = assemblies.get(key);
    if (memo) return memo;
    const assembly = assembleTools({
      tools: inScope(),
      ...(options.config !== undefined ? { config: options.config } : {}),
      ...(options.contextWindow !== undefined ? { contextWindow: options.contextWindow } : {}),
      ...(options.ranker ? { ranker: options.ranker } : {}),
      ...(options.counter ? { counter: options.counter } : {}),
      pinned: [...(options.pinned ?? []), ...loaded],
      stableDescriptions: true,
      searchGuard,
      cache,
      ...(learning ? { learning } : {}),
      ...(programCaller ? { program: programCaller.program } : {}),
    });
    if (assemblies.size >= ASSEMBLY_MEMO) assemblies.delete(assemblies.keys().next().value!);
    assemblies.set(key, assembly);
    return assembly;
  };

  const warnOnce = createOnceWarner(options.logger ?? console);
  let stepsPrepared = false;
  const checkWiring = () => {
    if (stepsPrepared) return;
    warnOnce(
      'no-prepare-step',
      "@tool-search/ai-sdk: a tool ran, but withToolSearch's prepareStep never did: every tool goes out on every step, and the bridge adds three more. Pass `prepareStep: search.prepareStep` to generateText or streamText (or spread the setup: `{ model, ...search, prompt }`).",
    );
  };
  const sessionOf = () => (options.sessionId !== undefined ? { sessionId: options.sessionId } : {});
  const toolOf = (name: string) => known.get(name);
  const toolContext = (name: string) => {
    const tool = known.get(name);
    return tool ? { tool } : {};
  };

  // Approval and execution resolve a call the same way: the assembly of the same
  // messages, the same bridge resolution and repair. Only `run` differs.
  // The outputs of denied and failed calls: the bridge (its search guard, learning) must
  // not count them as successes.
  const failures = new WeakSet<object>();
  const succeeded = (output: unknown) =>
    typeof output !== 'object' || output === null || !failures.has(output);
  const answer = async (call: ToolCall, execution: AiSdkExecutionOptions) =>
    answerModelCall(
      await assemble(execution.messages),
      call,
      (real, extra) =>
        dispatchForModel(dispatch, real, execution, { ...sessionOf(), ...extra }, failures),
      toolOf,
      succeeded,
    );

  const callsToApprove = async (toolCallId: string, input: unknown, messages?: ModelMessage[]) =>
    finalCalls(
      await assemble(messages),
      modelCall(toolCallId, input, routed.has(toolCallId)),
      toolOf,
    );

  // Every final call of a tool_call is asked about (no short cut), each on its real tool
  // with the arguments that will run; one that needs approval makes the call need it.
  const innerNeedsApproval: NeedsApproval = async (input, approvalOptions) => {
    const { toolCallId, messages } = (approvalOptions ?? {}) as {
      toolCallId?: string;
      messages?: ModelMessage[];
    };
    const calls = await callsToApprove(toolCallId ?? '', input, messages);
    let needed = false;
    for (const { call } of calls) {
      if (await toolNeedsApproval(tools, call.name, call.arguments, approvalOptions)) {
        needed = true;
      }
    }
    return needed;
  };

  const [searchDefinition, describeDefinition, callDefinition] = createBridgeTools({
    stableDescriptions: true,
  }) as [ToolDefinition, ToolDefinition, ToolDefinition];
  const result: ToolSet = {};
  for (const [name, tool] of Object.entries(tools)) {
    if (!isFunctionTool(tool) || typeof tool.execute !== 'function') {
      result[name] = tool;
      continue;
    }
    result[name] = {
      ...(tool as object),
      execute: async (input: unknown, execution: AiSdkExecutionOptions) => {
        checkWiring();
        const assembly = await assemble(execution.messages);
        const output = await dispatchForModel(
          dispatch,
          { id: execution.toolCallId, name, arguments: (input ?? {}) as Record<string, unknown> },
          execution,
          { ...sessionOf(), via: 'direct', ...toolContext(name) },
          failures,
        );
        // A tool the model loaded and called by its name: the session's learning hears of it.
        assembly.learning?.recordCall(name, succeeded(output));
        return output;
      },
    } as unknown as Tool;
  }
  result[TOOL_SEARCH] = ownTool(searchDefinition, async (input, execution) => {
    checkWiring();
    const answered = await answer(
      { id: execution.toolCallId, name: TOOL_SEARCH, arguments: input as never },
      execution,
    );
    return compactSearchAnswer(answered);
  });
  result[TOOL_DESCRIBE] = ownTool(describeDefinition, (input, execution) => {
    checkWiring();
    return answer(
      { id: execution.toolCallId, name: TOOL_DESCRIBE, arguments: input as never },
      execution,
    );
  });
  result[TOOL_CALL] = ownTool(
    callDefinition,
    (input, execution) => {
      checkWiring();
      return answer(
        modelCall(execution.toolCallId, input, routed.delete(execution.toolCallId)),
        execution,
      );
    },
    innerNeedsApproval,
  );

  if (programOptions && programPolicy) {
    programCaller = createProgramCaller({
      options: { ...programOptions, policy: programPolicy },
      dispatch,
      reach: async (messages) => {
        const assembly = await assemble(messages);
        return { tools: inScope(), deferred: new Set(assembly.deferred.map(({ name }) => name)) };
      },
      ...(options.hooks ? { hooks: options.hooks } : {}),
      ...(options.ranker ? { ranker: options.ranker } : {}),
      ...sessionOf(),
      onRun: checkWiring,
      ...(programApproval ? { settle: programApproval.settle } : {}),
    });
    result[TOOL_PROGRAM] = programCaller.tool;
  }

  const bridgeNames: ReadonlySet<string> = programCaller
    ? new Set([...BRIDGE_TOOL_NAMES, TOOL_PROGRAM])
    : BRIDGE_TOOL_NAMES;
  const prepareStep = async (step: StepOptions) => {
    stepsPrepared = true;
    const [assembly, own] = await Promise.all([
      assemble(step.messages),
      options.prepareStep ? options.prepareStep(step) : undefined,
    ]);
    const ours = [...assembly.tools.map((tool) => tool.name), ...providerTools];
    const activeTools = mergeActiveTools(ours, [own?.activeTools], bridgeNames);
    return { ...own, activeTools };
  };

  const repairToolCall: RepairToolCall = async (repair) => {
    const { toolCall, error } = repair;
    if (!NoSuchToolError.isInstance(error) || toolCall.toolName === TOOL_CALL) {
      return options.repairToolCall ? options.repairToolCall(repair) : null;
    }
    const assembly = await assemble(repair.messages);
    if (!assembly.activated) {
      return options.repairToolCall ? options.repairToolCall(repair) : null;
    }
    if (routed.size >= ROUTED_MEMO) routed.delete(routed.values().next().value!);
    routed.add(toolCall.toolCallId);
    return {
      ...toolCall,
      toolName: TOOL_CALL,
      input: JSON.stringify({ name: toolCall.toolName, arguments: parsedInput(toolCall.input) }),
    };
  };

  // It answers what the configuration or a tool's needsApproval answers: a status.
  const toolApproval = createBridgeToolApproval(tools, options.toolApproval, {
    finalCalls: async (toolCall, messages) =>
      (await callsToApprove(toolCall.toolCallId, toolCall.input, messages as ModelMessage[])).map(
        ({ call }) => call,
      ),
  });
  // A program's nested call, as the AI SDK's own policy sees a direct call: the real name
  // and the arguments that will run, with the context of the tool_program call.
  const programCallVerdict = (call: ToolCall, context: { messages?: readonly unknown[] }) =>
    toolApproval({
      toolCall: { toolCallId: call.id ?? '', toolName: call.name, input: call.arguments },
      messages: [...(context.messages ?? [])],
    });
  return {
    tools: result,
    prepareStep,
    repairToolCall,
    experimental_repairToolCall: repairToolCall,
    toolApproval: toolApproval as (request: ToolApprovalRequest) => Promise<ApprovalStatus>,
    dispatch,
    assemble,
    ...(programCaller
      ? {
          program: programCaller.program,
          experimental_toolCallers: toolCallersOf(result) as Record<string, never[]>,
        }
      : {}),
  };
}
