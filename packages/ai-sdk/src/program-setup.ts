import type { ProgramPolicy } from '@tool-search/code';
import { createProgramPolicy } from '@tool-search/code';
import type { Ranker, ToolCall, ToolDefinition } from '@tool-search/core';
import type { Dispatcher } from '@tool-search/hooks';
import type { ModelMessage } from 'ai';
import type { AiSdkCallContext, AiSdkDispatchOptions } from './call-dispatch.js';
import { createProgramApproval, type ProgramApproval } from './program-approval.js';
import {
  type AiSdkProgramOptions,
  createProgramCaller,
  type ProgramCaller,
} from './program-caller.js';
import { programDispatchOptions } from './program-wiring.js';
import type { ApprovalStatus } from './tool-approval.js';

/** The program side of a setup with the `program` option. */
export interface ProgramSetup {
  options: AiSdkProgramOptions;
  policy: ProgramPolicy;
  /** The AI SDK's approval policy for programs' nested calls. */
  approval: ProgramApproval;
}

/**
 * The program side of a setup: the policy (the option's, or read-only tools) and the AI
 * SDK's approval of nested calls; none without the `program` option.
 *
 * @param program - the `program` option (`true` for the defaults)
 * @param approval - the setup's own approval adapter
 * @param verdict - the AI SDK's policy on a nested call, as on a direct call
 * @returns the setup, or undefined
 * @throws nothing
 */
export function createProgramSetup(
  program: AiSdkProgramOptions | true | undefined,
  approval: AiSdkDispatchOptions['approval'],
  verdict: (call: ToolCall, context: { messages?: readonly unknown[] }) => Promise<ApprovalStatus>,
): ProgramSetup | undefined {
  const options = program === true ? {} : program;
  if (options === undefined) return undefined;
  return {
    options,
    policy: options.policy ?? createProgramPolicy(),
    approval: createProgramApproval({
      verdict,
      ...(options.approval ? { ask: options.approval } : {}),
      ...(approval ? { approval } : {}),
    }),
  };
}

/**
 * The dispatch options of a setup: with programs on, the program policy first among the
 * guardrails and the AI SDK's approval of nested calls last (see program-wiring.ts).
 *
 * @param options - the setup's dispatch options
 * @param setup - the program side, when programs are on
 * @returns the options for the setup's dispatcher
 * @throws nothing
 */
export function setupDispatchOptions(
  options: AiSdkDispatchOptions,
  setup: ProgramSetup | undefined,
): AiSdkDispatchOptions {
  return setup ? programDispatchOptions(options, setup.policy, setup.approval) : options;
}

/**
 * The program tool of a setup: every nested call through the setup's dispatcher, in reach
 * of the step's tools in scope and those deferred.
 *
 * @param setup - the program side
 * @param input - the setup's dispatcher, assembly, scope and options
 * @returns the program caller
 * @throws `ToolSearchError` `invalid_argument` when a limit is unknown or not a positive number
 */
export function attachProgram(
  setup: ProgramSetup,
  input: {
    dispatch: Dispatcher<AiSdkCallContext>;
    assemble: (
      messages?: readonly ModelMessage[],
    ) => Promise<{ deferred: readonly ToolDefinition[] }>;
    inScope: () => ToolDefinition[];
    hooks?: readonly object[] | undefined;
    ranker?: Ranker | undefined;
    sessionId?: string | undefined;
    onRun: () => void;
  },
): ProgramCaller {
  return createProgramCaller({
    options: { ...setup.options, policy: setup.policy },
    dispatch: input.dispatch,
    reach: async (messages) => {
      const assembly = await input.assemble(messages);
      return {
        tools: input.inScope(),
        deferred: new Set(assembly.deferred.map(({ name }) => name)),
      };
    },
    ...(input.hooks ? { hooks: input.hooks } : {}),
    ...(input.ranker ? { ranker: input.ranker } : {}),
    ...(input.sessionId !== undefined ? { sessionId: input.sessionId } : {}),
    onRun: input.onRun,
    settle: setup.approval.settle,
  });
}
