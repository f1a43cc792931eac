/**
 * The code block of packages/core/README.md (sync:docs writes the `readme` region into
 * it): parse a config, decide activation, search a catalog.
 */
// #region readme
import {
  createBm25Ranker,
  createCatalog,
  decideActivation,
  estimateToolTokens,
  parseToolSearchConfig,
} from '@tool-search/core';
import { tools as mcpTools } from './tools.js';

const config = parseToolSearchConfig({ threshold_pct: 10 }); // clamps; warns on typos
const decision = decideActivation({
  deferrableTokens: estimateToolTokens(mcpTools),
  contextWindow: 200_000,
  config,
});
const catalog = createCatalog(mcpTools, { ranker: createBm25Ranker() });
const hits = await catalog.search('open a github issue', { limit: 5 });
console.log(
  decision.reason,
  hits.map((hit) => hit.name),
);

// #endregion readme

import { strict as assert } from 'node:assert';

assert.equal(decision.active, false); // five small tools stay below 10% of 200k
assert.equal(hits[0]?.name, 'github_create_issue');
