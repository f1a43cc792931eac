import { assembleTools, handleBridgeCall } from '@tool-search/bridge';
import { readFileSync } from 'node:fs';
const entries = JSON.parse(readFileSync('../../apps/gateway/data/mcp-real/combined-catalog.json','utf8'));
const tools = (Array.isArray(entries) ? entries : entries.tools).map((e) => ({ name: e.id.replace('::','__'), description: e.description, inputSchema: e.inputSchema, source: 'mcp' }));
const q = (a, query) => handleBridgeCall(a, { name: 'tool_search', arguments: { query } }, () => undefined);
for (let w = 0; w < 2; w++) { const warm = assembleTools({ tools, contextWindow: 128000 }); await q(warm, process.env.WQ ?? 'read a file'); }
const session = assembleTools({ tools, contextWindow: 128000 });
const out = [];
for (const query of (process.env.QS ?? 'read a file|read a file|create github issue|create github issue|zebra quantum|take a screenshot').split('|')) { const t = performance.now(); await q(session, query); out.push(query + '=' + (performance.now() - t).toFixed(2)); }
console.log(out.join('  '));
