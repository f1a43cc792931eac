// An upstream whose `hang` tool never answers (for timeouts and cancellation). Run as a
// script it serves stdio; `createHangServer` builds the same server for in-process tests.
import { fileURLToPath } from 'node:url';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/** The hang server, unconnected. */
export function createHangServer() {
  const server = new Server(
    { name: 'hang-fixture', version: '1.0.0' },
    { capabilities: { tools: {} } },
  );
  let cancelled = 0;
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      {
        name: 'hang',
        description: 'Never answers.',
        inputSchema: { type: 'object', properties: {} },
      },
      {
        name: 'cancelled_count',
        description: 'How many hanging calls the client cancelled.',
        inputSchema: { type: 'object', properties: {} },
      },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    if (request.params.name === 'hang') {
      return new Promise((resolve) => {
        extra.signal.addEventListener('abort', () => {
          cancelled += 1;
          resolve({ content: [{ type: 'text', text: 'cancelled' }] });
        });
      });
    }
    return { content: [{ type: 'text', text: String(cancelled) }] };
  });
  return server;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await createHangServer().connect(new StdioServerTransport());
}
