import { type AiSdkLogger, createOnceWarner } from './step-merge.js';

/**
 * The setup's check that it is wired: a tool ran but `prepareStep` never did (every tool
 * then goes out on every step, and the bridge adds three more), warned once.
 *
 * @param logger - where the warning goes
 * @returns `onStep` for `prepareStep`, `onRun` for every tool that runs
 * @throws nothing
 */
export function createWiringCheck(logger: AiSdkLogger): { onStep(): void; onRun(): void } {
  const warnOnce = createOnceWarner(logger);
  let stepsPrepared = false;
  return {
    onStep() {
      stepsPrepared = true;
    },
    onRun() {
      if (stepsPrepared) return;
      warnOnce(
        'no-prepare-step',
        "@tool-search/ai-sdk: a tool ran, but withToolSearch's prepareStep never did: every tool goes out on every step, and the bridge adds three more. Pass `prepareStep: search.prepareStep` to generateText or streamText (or spread the setup: `{ model, ...search, prompt }`).",
      );
    },
  };
}
