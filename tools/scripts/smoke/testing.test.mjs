// Runs under vitest in the smoke project: every ./testing subpath imports, and the
// conformance suites pass as a plugin author would run them: testRanker on the default
// rankers, testGuardrail on a hooks guardrail, testGatewayStore on the memory store.
import { readFile } from 'node:fs/promises';
import { createBm25Ranker } from '@tool-search/core';
import { testRanker } from '@tool-search/core/testing';
import { createToolPolicyGuardrail } from '@tool-search/hooks';
import { testGuardrail } from '@tool-search/hooks/testing';
import { createMemoryStore } from '@tool-search/mcp/store/memory';
import { testGatewayStore } from '@tool-search/mcp/testing';
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

testGuardrail(createToolPolicyGuardrail({ deny: { tools: ['github_merge_*'] } }), {
  allows: [{ call: { name: 'github_list_pulls', arguments: { repo: 'a/b' } } }],
  denies: [{ call: { name: 'github_merge_pull_request', arguments: { number: 7 } } }],
});

testGatewayStore({ open: () => createMemoryStore() });
