// Learning from use in the gateway: one learner per gateway, on the gateway's store (so
// that replicas on one Redis share what they learned), and one learning session per
// client session, for its profile and its client's token. The bridge records through it
// (a search, then a successful call of a tool it returned) and ranks with it.

import {
  createLearningSession,
  createMemoryLearningStore,
  createSearchLearner,
  type LearningLimits,
  type LearningSession,
  type LearningStore,
  type SearchLearner,
} from '@tool-search/core';
import type { LearningConfig } from '../config/section-schemas.js';
import type { GatewayStore } from '../store/types.js';

/** The config's bounds, as core's {@link LearningLimits} (only those it sets). */
export function learningLimitsOf(config: LearningConfig | undefined): Partial<LearningLimits> {
  const limits: Partial<LearningLimits> = {};
  if (config === undefined) return limits;
  for (const key of [
    'maxTermsPerTool',
    'maxEntries',
    'tokenCap',
    'tokenToolCap',
    'halfLifeMs',
    'decayStepMs',
    'maxTermsPerQuery',
  ] as const) {
    const value = config[key];
    if (value !== undefined) limits[key] = value;
  }
  return limits;
}

/**
 * The learning store of a gateway's store, with the config's bounds: where the gateway's
 * store keeps learned terms (Redis for a Redis store, shared by the replicas), or this
 * process's memory. What a gateway with `learning.enabled` records into; the CLI's
 * `learning export|import|clear` open it on the replicas' store.
 *
 * @example
 * ```ts
 * const store = await openGatewayStore('redis://127.0.0.1:6379/0');
 * const learned = await openLearningStore(store, config.learning).export('team-a');
 * ```
 *
 * @param store - the gateway's store
 * @param config - the config's `learning` section
 * @returns the learning store
 * @throws `ToolSearchError` `invalid_argument` for a bad bound
 */
export function openLearningStore(
  store: GatewayStore,
  config: LearningConfig | undefined,
): LearningStore {
  const limits = learningLimitsOf(config);
  return store.learningStore?.({ limits }) ?? createMemoryLearningStore({ limits });
}

/**
 * The learner of a gateway: the one given, else one on the gateway's store when the
 * config turns learning on, else none (nothing is learned).
 *
 * @throws `ToolSearchError` `invalid_argument` for a bad bound
 */
export function createGatewayLearner(
  config: LearningConfig | undefined,
  store: GatewayStore,
  given: SearchLearner | undefined,
): SearchLearner | undefined {
  if (given !== undefined) return given;
  if (config?.enabled !== true) return undefined;
  return createSearchLearner({ store: openLearningStore(store, config) });
}

/**
 * One session's learning: its profile's terms, capped per client token (the session's
 * principal; a session without a token is its own user, uncapped as in a library).
 *
 * @param learner - the gateway's learner, if learning is on
 * @param profile - the session's profile
 * @param principal - who opened the session ('' when no token is required)
 * @param window - calls after a search that still count @defaultValue 3
 * @returns the learning session, or undefined when learning is off
 * @throws nothing
 */
export function sessionLearning(
  learner: SearchLearner | undefined,
  profile: string | undefined,
  principal: string | undefined,
  window: number | undefined,
): LearningSession | undefined {
  if (learner === undefined) return undefined;
  return createLearningSession({
    learner,
    ...(profile === undefined ? {} : { profile }),
    ...(principal === undefined || principal === '' ? {} : { token: principal }),
    ...(window === undefined ? {} : { window }),
  });
}
