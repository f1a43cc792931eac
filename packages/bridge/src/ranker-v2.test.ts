import {
  createBm25Ranker,
  defineRanker,
  type RankerIndexOptions,
  type ToolDefinition,
} from '@tool-search/core';
import { describe, expect, it } from 'vitest';
import { forcedOn, paddedTool } from './__fixtures__/tools.js';
import { assembleTools } from './assemble.js';
import { createAssemblyCache } from './assembly-memo.js';

/** A v2 ranker that remembers what each `index` call was given. */
function spyRanker() {
  const calls: { tools: readonly ToolDefinition[]; options: RankerIndexOptions | undefined }[] = [];
  const inner = createBm25Ranker();
  const ranker = defineRanker({
    specificationVersion: 'v2',
    id: 'spy',
    async index(tools, options) {
      calls.push({ tools, options });
      return await inner.index(tools);
    },
  });
  return { ranker, calls };
}

describe('assembleTools with a v2 ranker', () => {
  it('hands the ranker the previous index and the positions that changed', async () => {
    const { ranker, calls } = spyRanker();
    const tools = Array.from({ length: 200 }, (_, i) => paddedTool(i));
    const first = assembleTools({ tools, config: forcedOn, ranker, cache: createAssemblyCache() });
    await first.catalog.search('bulk');
    const edited = [...tools];
    edited[17] = paddedTool(1017);
    const second = assembleTools({ tools: edited, config: forcedOn, ranker, previous: first });
    await second.catalog.search('bulk');
    expect(calls).toHaveLength(2);
    expect(calls[0]!.options?.previous).toBeUndefined();
    expect(calls[1]!.options?.previous).toBeDefined();
    expect(calls[1]!.options?.change?.changed).toEqual([17]);
    expect(second.cache).toBe(first.cache);
  });

  it('keeps the caches of two sessions apart', async () => {
    const { ranker, calls } = spyRanker();
    const tools = Array.from({ length: 50 }, (_, i) => paddedTool(i));
    const a = assembleTools({ tools, config: forcedOn, ranker, cache: createAssemblyCache() });
    await a.catalog.search('bulk');
    const b = assembleTools({ tools, config: forcedOn, ranker, cache: createAssemblyCache() });
    await b.catalog.search('bulk');
    // The second session's cache holds no index of the first: nothing is handed over.
    expect(calls[1]!.options?.previous).toBeUndefined();
    expect(b.cache).not.toBe(a.cache);
  });
});
