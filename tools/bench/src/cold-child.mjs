// One cold start (run by cold.ts in a fresh `node` per run, no loader, no warm-up):
// import the library, build over the catalog, answer the first search, and send the
// times (ms) to the parent. Reading the catalog's file is not counted.
import { readFileSync } from 'node:fs';

const [contender, toolsFile, documentsFile, query] = process.argv.slice(2);
const tools = JSON.parse(readFileSync(toolsFile, 'utf8'));
const documents = JSON.parse(readFileSync(documentsFile, 'utf8'));
const BOOSTS = { name: 3, description: 1, parameters: 0.5 };

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
