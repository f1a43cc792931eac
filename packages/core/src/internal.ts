/**
 * What the sibling `@tool-search/*` packages share with core but users do not need:
 * the bridge tool names (users import them from `@tool-search/bridge`), the length a
 * search hit's description is cut to, the registration of a list (its names checked and
 * mapped in the caller's catalog cache), the list comparisons, the patch threshold and
 * the versioned map shared by every memo of tool lists, the one-line rendering of a thrown value, the plain-record check (`isRecord`), the
 * model-facing JSON that token estimates count, and the loader of the shipped
 * related-words table (the package check proves the table is in the tarball with it).
 *
 * Not a public API: any release may change or remove what is here, so import it only
 * from a `@tool-search/*` package of the same version.
 *
 * @packageDocumentation
 */

export { callSucceeded } from './call-outcome.js';
export { SEARCH_HIT_DESCRIPTION_LENGTH } from './catalog.js';
export { registerToolList } from './catalog-cache.js';
export {
  BRIDGE_TOOL_NAMES,
  isBridgeToolName,
  TOOL_CALL,
  TOOL_DESCRIBE,
  TOOL_SEARCH,
} from './classify.js';
export { describeError } from './errors.js';
export { isRecord, ownValue } from './is-record.js';
export { parseLearningExport } from './learning/learning-export.js';
export { LearningSessionState, learningOf } from './learning/learning-session.js';
export {
  checkLimits as checkLearningLimits,
  distinctTerms as distinctLearnedTerms,
  tokenHash as learningTokenHash,
} from './learning/memory-store.js';
export { learnedTermsView, MIN_COUNT as MIN_LEARNED_COUNT } from './learning/profile-learning.js';
export { warnEach } from './logger.js';
export type { RelatedWords } from './related-words.js';
export { loadRelatedWords } from './related-words.js';
export { modelFacingJson } from './tokens.js';
export { differences, PATCH_SHARE, sameTools } from './tool-list.js';
export type { LoadingInput } from './tool-loading.js';
export { applyToolLoading, toolLoadingOf } from './tool-loading.js';
export type { VersionSetter } from './versioned-map.js';
export { VersionedMap } from './versioned-map.js';
