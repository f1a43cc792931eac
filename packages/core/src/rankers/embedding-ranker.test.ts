import { describe, expect, it } from 'vitest';
import { createAnalyzer } from '../analyzer.js';
import { ToolSearchError } from '../errors.js';
import { conformanceTools, testRanker } from '../testing/index.js';
import type { ToolDefinition } from '../types.js';
import {
  createEmbeddingRanker,
  defaultEmbeddingText,
  type EmbedFunction,
} from './embedding-ranker.js';

const analyzer = createAnalyzer();
const tool = (name: string, description: string): ToolDefinition => ({
  name,
  description,
  inputSchema: { type: 'object', properties: {} },
});

// The stemmed words of the test tools, each one dimension.
const vocabulary = new Map<string, number>();
for (const t of [
  ...conformanceTools,
  tool('brand_new', 'A new tool'),
  tool('weather', 'news today forecast'),
]) {
  for (const term of analyzer.analyze(defaultEmbeddingText(t))) {
    if (!vocabulary.has(term)) vocabulary.set(term, vocabulary.size);
  }
}

/** Bag of known stemmed words: a small, deterministic embedding that needs no model. */
function bagOfWordsEmbedding(calls: string[][] = []): EmbedFunction {
  return (texts) => {
    calls.push(texts);
    return texts.map((text) => {
      const vector = new Array<number>(vocabulary.size).fill(0);
      for (const term of analyzer.analyze(text)) {
        const at = vocabulary.get(term);
        if (at !== undefined) vector[at]! += 1;
      }
      return vector;
    });
  };
}

testRanker(createEmbeddingRanker({ embed: bagOfWordsEmbedding(), id: 'embedding:bag-of-words' }));

describe('createEmbeddingRanker', () => {
  it('ranks by cosine similarity, best first, scores in (0, 1]', async () => {
    const index = await createEmbeddingRanker({ embed: bagOfWordsEmbedding() }).index(
      conformanceTools,
    );
    const hits = await index.search('post a message to a slack channel', 5);
    expect(hits[0]!.name).toBe('slack_post_message');
    for (const hit of hits) {
      expect(hit.score).toBeGreaterThan(0);
      expect(hit.score).toBeLessThanOrEqual(1 + 1e-6);
    }
  });

  it('embeds only tools whose text it has not seen, in batches', async () => {
    const calls: string[][] = [];
    const ranker = createEmbeddingRanker({ embed: bagOfWordsEmbedding(calls), batchSize: 10 });
    await ranker.index(conformanceTools);
    expect(calls.map((batch) => batch.length)).toEqual([10, 10, 10, 1]);
    calls.length = 0;
    const changed = [...conformanceTools.slice(1), tool('brand_new', 'A new tool')];
    // A copy with the same content is not embedded again either.
    changed[0] = { ...changed[0]! };
    await ranker.index(changed);
    expect(calls).toEqual([[defaultEmbeddingText(tool('brand_new', 'A new tool'))]]);
  });

  it('embeds a repeated query once', async () => {
    const calls: string[][] = [];
    const index = await createEmbeddingRanker({ embed: bagOfWordsEmbedding(calls) }).index(
      conformanceTools,
    );
    calls.length = 0;
    await index.search('read a file', 3);
    await index.search('read a file', 3);
    expect(calls).toEqual([['read a file']]);
  });

  it('returns nothing for an empty query or one with no known word', async () => {
    const index = await createEmbeddingRanker({ embed: bagOfWordsEmbedding() }).index([
      tool('a', 'alpha'),
    ]);
    expect(await index.search('   ', 5)).toEqual([]);
    expect(await index.search('the of and', 5)).toEqual([]);
  });

  it('drops tools at or below minScore', async () => {
    const tools = [tool('weather', 'weather forecast'), tool('weather_news', 'weather news today')];
    const strict = createEmbeddingRanker({ embed: bagOfWordsEmbedding(), minScore: 0.99 });
    const hits = await (await strict.index(tools)).search('weather forecast', 5);
    expect(hits.map((hit) => hit.name)).toEqual([]);
    const loose = createEmbeddingRanker({ embed: bagOfWordsEmbedding(), minScore: 0.1 });
    expect((await (await loose.index(tools)).search('weather forecast', 5))[0]!.name).toBe(
      'weather',
    );
  });

  it('rejects an embedding function that breaks its contract', async () => {
    const tools = [tool('a', 'alpha'), tool('b', 'beta')];
    const tooFew = createEmbeddingRanker({ embed: () => [[1, 0]] });
    await expect(tooFew.index(tools)).rejects.toThrow(/1 vectors for 2 texts/);
    const mixed = createEmbeddingRanker({
      embed: (texts) => texts.map((_, i) => (i ? [1] : [1, 0])),
    });
    await expect(mixed.index(tools)).rejects.toThrow(ToolSearchError);
    const notFinite = createEmbeddingRanker({ embed: (texts) => texts.map(() => [Number.NaN]) });
    await expect(notFinite.index(tools)).rejects.toThrow(/finite/);
    const failing = createEmbeddingRanker({
      embed: () => {
        throw new Error('quota exceeded');
      },
    });
    await expect(failing.index(tools)).rejects.toThrow('quota exceeded');
  });

  it('needs an embed function', () => {
    expect(() => createEmbeddingRanker({} as never)).toThrow(ToolSearchError);
  });
});
