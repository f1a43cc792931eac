import type { ToolSearchLogger } from '@tool-search/core';
import type { ModelMessage } from 'ai';

/**
 * Where the adapter's messages go; `console` is one. Core's `ToolSearchLogger` (one
 * logger serves every package) with an optional `info`. `warn` is called once per
 * {@link withToolSearch} setup for each misuse it notices, and once when tool search is
 * inactive below the threshold; `info`, when present, once with any other decision.
 */
export interface AiSdkLogger extends ToolSearchLogger {
  /** Receives the setup's activation decision when it is not a warning. */
  info?(message: string): void;
}

/** What `generateText` hands `prepareStep`: the fields the adapter reads, and the rest. */
export interface StepOptions {
  messages: ModelMessage[];
  stepNumber?: number;
  [key: string]: unknown;
}

/** What a `prepareStep` may answer: `activeTools`, and any other step setting (model, toolChoice, system). */
export interface StepSettings {
  activeTools?: string[];
  [key: string]: unknown;
}

/** Your own `prepareStep`, given to `withToolSearch` so that both run. */
export type UserPrepareStep = (
  options: StepOptions,
) => StepSettings | undefined | PromiseLike<StepSettings | undefined>;

/**
 * The tools of a step when the caller restricts them too: ours (what the bridge shows
 * this step), kept only where the caller's lists allow them; the bridge tools stay
 * while any deferred tool is allowed, since they are the only way to reach it.
 *
 * @param ours - the active tools the assembly gives
 * @param allowed - the caller's lists (`activeTools` option, their `prepareStep`'s answer)
 * @param bridge - the bridge tools' names
 * @returns the merged list, in our order
 * @throws nothing
 */
export function mergeActiveTools(
  ours: readonly string[],
  allowed: readonly (readonly string[] | undefined)[],
  bridge: ReadonlySet<string>,
): string[] {
  const lists = allowed.filter((list): list is readonly string[] => list !== undefined);
  if (lists.length === 0) return [...ours];
  const sets = lists.map((list) => new Set(list));
  return ours.filter((name) => bridge.has(name) || sets.every((set) => set.has(name)));
}

/**
 * A once-only warning, kept by the setup that owns it.
 *
 * @param logger - where it goes
 * @returns `warn(key, message)`, which passes each key on once
 * @throws nothing
 */
export function createOnceWarner(logger: AiSdkLogger): (key: string, message: string) => void {
  const said = new Set<string>();
  return (key, message) => {
    if (said.has(key)) return;
    said.add(key);
    logger.warn(message);
  };
}
