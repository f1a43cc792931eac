/**
 * A v2 ranker that patches: it analyses a tool once, and for a list patched from the
 * previous one it analyses only the tools at the changed positions.
 */
import { strict as assert } from 'node:assert';
import {
  createCatalog,
  createCatalogCache,
  defineRanker,
  type RankedTool,
  type RankerIndex,
  type ToolDefinition,
} from '@tool-search/core';
import { tools } from './tools.js';

// #region ranker
interface Document {
  readonly tool: ToolDefinition;
  readonly words: ReadonlySet<string>;
}

const words = (text: string) =>
  (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((word) => word.length > 2);

/** Creates a ranker that counts the query words in a tool's name and description. */
export function createPatchingRanker(onAnalyse?: (tool: ToolDefinition) => void) {
  // The documents behind each index this ranker built, for the `previous` it is handed back.
  const documentsOf = new WeakMap<RankerIndex, readonly Document[]>();
  const analyse = (tool: ToolDefinition): Document => {
    onAnalyse?.(tool);
    return {
      tool,
      words: new Set(words(`${tool.name.replace(/_/g, ' ')} ${tool.description ?? ''}`)),
    };
  };
  return defineRanker({
    specificationVersion: 'v2',
    id: 'example:patching-overlap',
    index(indexed, { previous, change } = {}) {
      const before = previous === undefined ? undefined : documentsOf.get(previous);
      let documents: Document[];
      if (before !== undefined && change !== undefined) {
        // Tools replaced in place: only the changed positions are analysed again.
        documents = [...before];
        for (const position of change.changed) documents[position] = analyse(indexed[position]!);
      } else {
        // Added, removed or moved tools: what the previous index analysed is found by tool object.
        const known = new Map(before?.map((document) => [document.tool, document]));
        documents = indexed.map((tool) => known.get(tool) ?? analyse(tool));
      }
      const index: RankerIndex = {
        search(query, limit) {
          const queryWords = [...new Set(words(query))];
          const ranked: RankedTool[] = [];
          for (const document of documents) {
            const hits = queryWords.filter((word) => document.words.has(word)).length;
            if (hits > 0) ranked.push({ name: document.tool.name, score: hits });
          }
          return ranked.sort((a, b) => b.score - a.score).slice(0, limit);
        },
      };
      documentsOf.set(index, documents);
      return index;
    },
  });
}
// #endregion ranker

// #region use
// One catalog cache per session: it hands the ranker its previous index and the change.
let analysed = 0;
const ranker = createPatchingRanker(() => {
  analysed += 1;
});
const cache = createCatalogCache();
await createCatalog(tools, { ranker, cache }).search('post a message');
await createCatalog(tools.slice(1), { ranker, cache }).search('post a message');
console.log(analysed); // every tool once: the second list reuses them all
// #endregion use

assert.equal(analysed, tools.length);
