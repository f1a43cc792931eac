/**
 * An upstream MCP server in the gateway's own process: an entry of `mcpServers` whose
 * `transport` function returns one end of the MCP SDK's linked in-memory pair, the other
 * end connected to a new server (the pool calls it again for every restart).
 */
import { strict as assert } from 'node:assert';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createUpstreamPool } from '@tool-search/mcp';

/** A server with one tool. */
function notesServer(): Server {
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

// #region in-process
const pool = createUpstreamPool({
  mcpServers: {
    notes: {
      transport: () => {
        const [client, server] = InMemoryTransport.createLinkedPair();
        void notesServer().connect(server);
        return client;
      },
    },
  },
});
const [notes] = await pool.start();
console.log(notes?.transport); // 'in-process'
// #endregion in-process

assert.equal(notes?.state, 'ready');
assert.deepEqual(
  pool.tools().map((tool) => tool.name),
  ['add_note'],
);
await pool.close();
