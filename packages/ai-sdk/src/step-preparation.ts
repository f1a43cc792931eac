import type { Assembly } from '@tool-search/bridge';
import type { ModelMessage } from 'ai';
import { type FixedToolList, keepsToolListFixed } from './fixed-tool-list.js';
import {
  mergeActiveTools,
  type StepOptions,
  type StepSettings,
  type UserPrepareStep,
} from './step-merge.js';

/** What {@link createStepPreparation} needs of the setup. */
export interface StepPreparationInput {
  assemble: (messages?: readonly ModelMessage[]) => Promise<Assembly>;
  /** The user's own `prepareStep`, merged with ours. */
  userPrepareStep?: UserPrepareStep | undefined;
  /** Provider-defined tools of the set (a platform's own tools): always active. */
  providerTools: readonly string[];
  /** The names of the bridge tools (and `tool_program`): kept while tools are deferred. */
  bridgeNames: ReadonlySet<string>;
  /** See {@link FixedToolList}. @defaultValue 'auto' */
  fixedToolList?: FixedToolList | undefined;
  /** Told of every step (the setup's wiring check). */
  onStep: () => void;
}

/**
 * The setup's `prepareStep`: the step's active tools are the assembly's (the visible
 * tools, the loaded ones unless the tool list stays fixed, the bridge), plus the
 * provider-defined tools, narrowed by the user's `prepareStep` answer, whose other
 * settings pass through.
 *
 * @param input - see {@link StepPreparationInput}
 * @returns the `prepareStep`
 * @throws nothing itself; rejects as the assembly or the user's `prepareStep` does
 */
export function createStepPreparation(
  input: StepPreparationInput,
): (step: StepOptions) => Promise<StepSettings & { activeTools: string[] }> {
  return async (step) => {
    input.onStep();
    // With a fixed tool list, every step sends the tools of the first (none loaded).
    const fixed = keepsToolListFixed(input.fixedToolList, step['model']);
    const [assembly, own] = await Promise.all([
      input.assemble(fixed ? undefined : step.messages),
      input.userPrepareStep ? input.userPrepareStep(step) : undefined,
    ]);
    const ours = [...assembly.tools.map((tool) => tool.name), ...input.providerTools];
    const activeTools = mergeActiveTools(ours, [own?.activeTools], input.bridgeNames);
    return { ...own, activeTools };
  };
}
