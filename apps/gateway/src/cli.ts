#!/usr/bin/env node
// Placeholder demo until the gateway issue lands: ranked searches over a recorded catalog.
import { readFileSync } from 'node:fs';
import { createCatalog, estimateToolTokens, type ToolDefinition } from '@tool-search/core';

const raw = JSON.parse(
  readFileSync(new URL('../data/mcp-real/combined-catalog.json', import.meta.url), 'utf8'),
) as {
  id: string;
  description?: string;
  inputSchema: ToolDefinition['inputSchema'];
  server: string;
}[];
const tools: ToolDefinition[] = raw.map((entry) => ({
  name: entry.id.replace('::', '__'),
  description: entry.description ?? '',
  inputSchema: entry.inputSchema,
  source: 'mcp',
  toolset: `mcp-${entry.server}`,
}));
const catalog = createCatalog(tools);
console.log(`${tools.length} tools, about ${estimateToolTokens(tools)} tokens of schemas`);
for (const query of [
  'create a github issue',
  'take a screenshot of the page',
  'list mongodb collections',
]) {
  const hits = await catalog.search(query, { limit: 3 });
  console.log(`\n> ${query}`);
  for (const hit of hits) console.log(`  ${hit.score.toFixed(2).padStart(6)}  ${hit.name}`);
}
