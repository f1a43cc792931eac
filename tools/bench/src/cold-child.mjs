// One cold start (run by cold.ts in a fresh `node` per run, no loader, no warm-up):
// import the library, build over the catalog, answer the first search, and send the
// times (ms) to the parent. Reading the catalog's file is not counted. `ai-sdk` is the
// AI SDK adapter's first step: import `@tool-search/ai-sdk` (and `ai`), make the tool
// set and `withToolSearch` over it (build), then the first step's `prepareStep` (the
// activation decision and the step's tools) and a first `tool_search` call (first
// search). `none` only reads the files (the base line of an instruction count).
import { readFileSync } from 'node:fs';

const [contender, toolsFile, documentsFile, query] = process.argv.slice(2);
const tools = JSON.parse(readFileSync(toolsFile, 'utf8'));
const documents = JSON.parse(readFileSync(documentsFile, 'utf8'));
const BOOSTS = { name: 3, description: 1, parameters: 0.5 };
// The model of the AI SDK's step: only its ids are read before a call.
const MODEL = { specificationVersion: 'v3', provider: 'cold-start', modelId: 'cold-start' };

const start = performance.now();
let imported;
let built;
let answer;
if (contender === 'ours') {
  const core = await import('@tool-search/core');
  imported = performance.now();
  const catalog = core.createCatalog(tools, { ranker: core.createBm25Ranker() });
  built = performance.now();
  answer = (await catalog.search(query, { limit: 5 })).map((hit) => hit.name ?? hit.tool?.name);
} else if (contender === 'minisearch') {
  const { default: MiniSearch } = await import('minisearch');
  imported = performance.now();
  const index = new MiniSearch({
    idField: 'id',
    fields: ['name', 'description', 'parameters'],
    storeFields: [],
    searchOptions: { boost: { name: BOOSTS.name, parameters: BOOSTS.parameters } },
  });
  index.addAll(documents);
  built = performance.now();
  answer = index.search(query).slice(0, 5);
} else if (contender === 'orama') {
  const orama = await import('@orama/orama');
  imported = performance.now();
  const db = orama.create({
    schema: { id: 'string', name: 'string', description: 'string', parameters: 'string' },
  });
  await orama.insertMultiple(
    db,
    documents.map((document) => ({ ...document, id: String(document.id) })),
  );
  built = performance.now();
  answer = await orama.search(db, {
    term: query,
    properties: ['name', 'description', 'parameters'],
    boost: { name: BOOSTS.name, parameters: BOOSTS.parameters },
    limit: 5,
  });
} else if (contender === 'ai-sdk') {
  const { toolSetFromDefinitions, withToolSearch } = await import('@tool-search/ai-sdk');
  imported = performance.now();
  const tools_ = toolSetFromDefinitions(tools, () => ({ ok: true }));
  const search = withToolSearch(tools_, { config: { enabled: 'on' }, contextWindow: 128_000 });
  built = performance.now();
  const messages = [{ role: 'user', content: query }];
  const step = await search.prepareStep({ steps: [], stepNumber: 0, messages, model: MODEL });
  if (!step?.activeTools?.includes('tool_search')) throw new Error('tool search is not active');
  const found = await search.tools.tool_search.execute(
    { query, limit: 5 },
    { toolCallId: 'cold-1', messages },
  );
  answer = found?.matches;
} else if (contender === 'none') {
  imported = built = performance.now();
  answer = [];
} else throw new Error(`unknown contender ${contender}`);
const end = performance.now();
process.send?.({
  type: 'result',
  result: {
    importMs: imported - start,
    buildMs: built - imported,
    firstSearchMs: end - built,
    totalMs: end - start,
    answered: Array.isArray(answer) ? answer.length : (answer?.hits?.length ?? 0),
  },
});
