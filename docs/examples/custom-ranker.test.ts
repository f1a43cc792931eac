// #region conformance
import { testRanker } from '@tool-search/core/testing';
import { overlapRanker } from './custom-ranker.js';

testRanker(overlapRanker);

// #endregion conformance

// #region conformance-v2
import { createPatchingRanker } from './custom-ranker-patching.js';

// For a v2 ranker, testRanker also checks that each patched index answers exactly as a fresh one.
testRanker(createPatchingRanker());
// #endregion conformance-v2
