// A new user's custom ranker, checked with core's conformance suite in an empty folder
// where only the packed tarballs are installed (run by check-packages.ts under vitest).
import { defineRanker } from '@tool-search/core';
import { testRanker } from '@tool-search/core/testing';

/** Scores a tool by how many query words its name and description hold. */
function wordOverlapRanker() {
  return defineRanker({
    specificationVersion: 'v1',
    id: 'word-overlap',
    index(tools) {
      const documents = tools.map((tool) => ({
        name: tool.name,
        words: new Set(`${tool.name} ${tool.description ?? ''}`.toLowerCase().split(/[^a-z0-9]+/)),
      }));
      return {
        search(query, limit) {
          const words = query
            .toLowerCase()
            .split(/[^a-z0-9]+/)
            .filter(Boolean);
          return documents
            .map((document) => ({
              name: document.name,
              score: words.filter((word) => document.words.has(word)).length,
            }))
            .filter((hit) => hit.score > 0)
            .sort((a, b) => b.score - a.score)
            .slice(0, limit);
        },
      };
    },
  });
}

testRanker(wordOverlapRanker());
