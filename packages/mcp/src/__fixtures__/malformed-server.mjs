// An upstream whose tools/list mixes good definitions with malformed ones. Run as a
// script it serves stdio; `createMalformedServer` builds the same server in-process.
import { fileURLToPath } from 'node:url';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/** The malformed server, unconnected. */
export function createMalformedServer() {
  const server = new Server(
    { name: 'malformed-fixture', version: '1.0.0' },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      {
        name: 'good_tool',
        description: 'A well-formed tool.',
        inputSchema: { type: 'object', properties: {} },
      },
      { name: 'bad name with spaces', inputSchema: { type: 'object' } },
      { name: 'array_schema', inputSchema: { type: 'array', items: {} } },
      // A quote in the name: the rejection must still name the tool in full.
      { name: "it's 'quoted'", inputSchema: { type: 'object' } },
      { name: 'good_tool', description: 'A duplicate name.', inputSchema: { type: 'object' } },
      { description: 'No name at all.', inputSchema: { type: 'object' } },
      'not even an object',
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async () => ({
    content: [{ type: 'text', text: 'good_tool ran' }],
  }));
  return server;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await createMalformedServer().connect(new StdioServerTransport());
}
