// The session's recorder lives in core, so that every surface (the bridge, the AI SDK
// adapter, the providers' client modes, the gateway) records through the same one.
export type { LearningSession, LearningSessionOptions } from '@tool-search/core';
export { createLearningSession } from '@tool-search/core';
export { learningOf } from '@tool-search/core/internal';
