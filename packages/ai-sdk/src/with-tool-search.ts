import { BRIDGE_TOOL_NAMES } from '@tool-search/bridge';
import { TOOL_PROGRAM } from '@tool-search/code';
import type { LearningSessionOptions, Ranker } from '@tool-search/core';
import type { ToolSet } from 'ai';
import type { ActivationOptions } from './activation.js';
import { createApprovalWiring } from './approval-wiring.js';
import { type AiSdkDispatchOptions, createToolSetDispatcher } from './call-dispatch.js';
import { reportedDecision } from './decision-report.js';
import type { FixedToolList } from './fixed-tool-list.js';
import type { AiSdkProgramOptions, ProgramCaller } from './program-caller.js';
import { attachProgram, createProgramSetup, setupDispatchOptions } from './program-setup.js';
import { toolCallersOf } from './program-wiring.js';
import { createRepairRouting } from './repair-routing.js';
import { assertNoReservedNames } from './reserved-names.js';
import { createSessionAssembler } from './session-assembler.js';
import { createSessionTools } from './session-tools.js';
import type { RepairToolCall, ToolSearchSetup } from './setup-types.js';
import type { AiSdkLogger, UserPrepareStep } from './step-merge.js';
import { createStepPreparation } from './step-preparation.js';
import type { ToolApprovalConfig } from './tool-approval.js';
import { isFunctionTool, type ToolSetLabels } from './tool-set-definitions.js';
import { createWiringCheck } from './wiring-check.js';

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
   * Where the setup reports, once each: its activation decision (a warning when tool
   * search is inactive below the threshold, else `info` when the logger has it), and
   * misuse: a tool ran but `prepareStep` never did (every tool then goes out on every
   * step, and the bridge adds three more).
   * @defaultValue warnings to `console.warn`, no `info`
   */
  logger?: AiSdkLogger;
  /**
   * Whether the tools sent stay the same on every step of a conversation. `true`: a tool
   * loaded with `tool_describe` does not join the step's tools; the model calls it through
   * `tool_call` (or by its name, which the repair routes there), so the `tools` of every
   * request are the first step's. `false`: a loaded tool joins the tools from the next
   * step on. `'auto'`: fixed for Anthropic (Claude) models, whose API refuses a request
   * whose `tools` changed after a thinking block (or drops that thinking), and free for
   * the others; the model of each step decides.
   * @defaultValue 'auto'
   */
  fixedToolList?: FixedToolList;
}

export type { RepairableToolCall, RepairToolCall, ToolSearchSetup } from './setup-types.js';

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
  assertNoReservedNames(tools, options.program !== undefined);
  let programCaller: ProgramCaller | undefined;
  const sessions = createSessionAssembler(tools, options, () => programCaller?.program);
  const { assemble, toolOf } = sessions;
  // Calls the repair routed: their tool_call execution is a direct call of the real tool.
  const routed = new Set<string>();
  const approvals = createApprovalWiring({
    tools,
    toolApproval: options.toolApproval,
    assemble,
    toolOf,
    routed,
  });
  const program = createProgramSetup(
    options.program,
    options.approval,
    approvals.programCallVerdict,
  );
  const dispatch = createToolSetDispatcher(tools, toolOf, setupDispatchOptions(options, program));
  // Without a logger of the user's, warnings go to the console and nothing else does: a
  // setup per request must not write a line per request.
  const logger: AiSdkLogger = options.logger ?? { warn: (message) => console.warn(message) };
  const wiring = createWiringCheck(logger);

  const result = createSessionTools({
    tools,
    dispatch,
    assemble,
    toolOf,
    onRun: wiring.onRun,
    routed,
    failures: new WeakSet<object>(),
    needsApproval: approvals.needsApproval,
    ...(options.sessionId !== undefined ? { sessionId: options.sessionId } : {}),
  });
  if (program) {
    programCaller = attachProgram(program, {
      dispatch,
      assemble,
      inScope: sessions.inScope,
      hooks: options.hooks,
      ranker: options.ranker,
      sessionId: options.sessionId,
      onRun: wiring.onRun,
    });
    result[TOOL_PROGRAM] = programCaller.tool;
  }
  const repairToolCall = createRepairRouting({
    assemble,
    routed,
    ...(options.repairToolCall ? { userRepair: options.repairToolCall } : {}),
  });
  return {
    tools: result,
    decision: reportedDecision(assemble, logger),
    prepareStep: createStepPreparation({
      assemble,
      userPrepareStep: options.prepareStep,
      providerTools: Object.keys(tools).filter((name) => !isFunctionTool(tools[name])),
      bridgeNames: programCaller
        ? new Set([...BRIDGE_TOOL_NAMES, TOOL_PROGRAM])
        : BRIDGE_TOOL_NAMES,
      fixedToolList: options.fixedToolList,
      onStep: wiring.onStep,
    }),
    repairToolCall,
    experimental_repairToolCall: repairToolCall,
    toolApproval: approvals.toolApproval,
    ...(sessions.learning ? { learning: sessions.learning } : {}),
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
