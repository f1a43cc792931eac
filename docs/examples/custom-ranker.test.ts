// #region conformance
import { testRanker } from '@tool-search/core/testing';
import { overlapRanker } from './custom-ranker.js';

testRanker(overlapRanker);
// #endregion conformance
