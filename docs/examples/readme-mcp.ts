/**
 * The code blocks of packages/mcp/README.md (the `readme` region: the protocol library on
 * its own) and packages/mcp-http/README.md (the `readme-http` region: `startGateway` of the
 * hosting package), written into them by sync:docs: a gateway over the servers of a
 * `gateway.json`, served on stdio. So that it runs
 * as it is, the config names one upstream of our own, a real MCP server on Streamable
 * HTTP in this process; the gateway connects to it, lists its tool, and closes.
 */
import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/** One upstream MCP server with one tool, answering each HTTP request statelessly. */
function upstreamServer(): Server {
  const server = new Server({ name: 'notes', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      {
        name: 'add_note',
        description: 'Add a note to the notebook.',
        inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
      },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async () => ({
    content: [{ type: 'text', text: 'added' }],
  }));
  return server;
}

const http = createServer(async (request, response) => {
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  response.on('close', () => void transport.close());
  await upstreamServer().connect(transport);
  await transport.handleRequest(request, response);
});
await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
const upstreamUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
const folder = await mkdtemp(join(tmpdir(), 'readme-mcp-'));
process.chdir(folder);
await writeFile(
  'gateway.json',
  JSON.stringify({ mcpServers: { notes: { url: upstreamUrl } }, toolSearch: { enabled: 'on' } }),
);
const progress: string[] = [];
console.error = (...parts: unknown[]) => void progress.push(parts.join(' '));

// #region readme
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createGatewayServer, createUpstreamPool } from '@tool-search/mcp';
import { loadGatewayConfig } from '@tool-search/mcp/config';

const config = await loadGatewayConfig('gateway.json'); // { "mcpServers": { ... } }
const pool = createUpstreamPool(config);
await pool.start();
const server = createGatewayServer({ pool, config, contextWindow: 200_000 });
await server.connect(new StdioServerTransport()); // any MCP transport: one client
// #endregion readme

assert.deepEqual(
  pool.tools().map((tool) => tool.name),
  ['add_note'],
);
await server.close();
await pool.close();

// #region readme-http
import { startGateway } from '@tool-search/mcp-http';

const gateway = await startGateway({
  config: await loadGatewayConfig('gateway.json'),
  transport: new StdioServerTransport(), // or: http: { port: 3000, token }
  contextWindow: 200_000,
  onProgress: (event) => console.error(event.server, event.kind),
});
process.once('SIGTERM', () => void gateway.close({ graceMs: 10_000 }));
// #endregion readme-http

const [status] = await gateway.ready();
assert.equal(status?.state, 'ready', JSON.stringify(status));
assert.deepEqual(
  gateway.pool.tools().map((tool) => tool.name),
  ['add_note'],
);
assert.ok(
  progress.some((line) => line.startsWith('notes ')),
  progress.join('\n'),
);
await gateway.close();
await new Promise<void>((resolve) => http.close(() => resolve()));
await rm(folder, { recursive: true, force: true });
process.stdout.write(`readme-mcp: ${status?.name} ready with ${status?.toolCount} tool\n`);
