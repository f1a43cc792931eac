import { createBm25Ranker } from '@tool-search/core';

// #region loop
const ranker = createBm25Ranker();
console.log(ranker.id);
// #endregion loop
