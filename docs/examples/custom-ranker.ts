/**
 * Writing a custom ranker: a ranker that scores tools by how many query words appear
 * in their name or description, and boosts one toolset.
 */
import { strict as assert } from 'node:assert';
import { createCatalog, defineRanker, type RankedTool } from '@tool-search/core';
import { tools } from './tools.js';

// #region ranker
// Lowercased words of three letters or more ('a', 'to', 'of' carry no meaning here).
const words = (text: string) =>
  (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((word) => word.length > 2);

/** Counts query words found in a tool's name and description; `mcp-github` counts double. */
export const overlapRanker = defineRanker({
  specificationVersion: 'v1',
  id: 'example:word-overlap',
  index(indexed) {
    // Analyse each tool once per index; `search` runs for every query.
    const documents = indexed.map((tool) => ({
      name: tool.name,
      words: new Set(words(`${tool.name.replace(/_/g, ' ')} ${tool.description ?? ''}`)),
      boost: tool.toolset === 'mcp-github' ? 2 : 1,
    }));
    return {
      search(query, limit) {
        const queryWords = [...new Set(words(query))];
        const ranked: RankedTool[] = [];
        for (const document of documents) {
          const hits = queryWords.filter((word) => document.words.has(word)).length;
          if (hits > 0) ranked.push({ name: document.name, score: hits * document.boost });
        }
        // Best first; ties keep catalog order (Array.prototype.sort is stable).
        return ranked.sort((a, b) => b.score - a.score).slice(0, limit);
      },
    };
  },
});
// #endregion ranker

// #region use
const catalog = createCatalog(tools, { ranker: overlapRanker });
const hits = await catalog.search('post a message', { limit: 3 });
console.log(hits.map((hit) => `${hit.name} ${hit.score}`));
// [ 'slack_post_message 2' ]
// #endregion use

assert.deepEqual(
  hits.map((hit) => `${hit.name} ${hit.score}`),
  ['slack_post_message 2'],
);
