// Runs under vitest in the smoke project: every ./testing subpath imports, and core's
// conformance suite passes for the default ranker as a custom-ranker author would run it.
import { readFile } from 'node:fs/promises';
import { createBm25Ranker } from '@tool-search/core';
import { testRanker } from '@tool-search/core/testing';
import { describe, expect, it } from 'vitest';

const entries = JSON.parse(await readFile(new URL('../entries.json', import.meta.url), 'utf8'));
const testing = entries.filter((specifier) => specifier.endsWith('/testing'));

describe('./testing subpaths', () => {
  it.each(testing)('%s imports and exports something', async (specifier) => {
    const namespace = await import(specifier);
    expect(Object.keys(namespace).length).toBeGreaterThan(0);
  });
});

testRanker(createBm25Ranker());
testRanker(createBm25Ranker({ preset: 'spec' }));
