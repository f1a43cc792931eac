// An MCP server over stdio whose tools come from the PARITY_TOOLS environment variable (a
// JSON array of { name, description, inputSchema }). Every tool answers with the name and
// the arguments it received, so a test sees exactly what reached the upstream.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const tools = JSON.parse(process.env.PARITY_TOOLS ?? '[]');
const server = new Server(
  { name: 'parity-echo', version: '1.0.0' },
  { capabilities: { tools: {} } },
);
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
// PARITY_ASK=1: every tool first asks its caller to confirm, mid-call (a 2025-era question).
const asks = process.env.PARITY_ASK === '1';
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  if (asks) {
    const answer = await server.elicitInput({
      message: `Confirm ${request.params.name}?`,
      requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
    });
    if (answer.action !== 'accept' || answer.content?.ok !== true) {
      return { content: [{ type: 'text', text: 'not confirmed' }], isError: true };
    }
  }
  return {
    content: [
      {
        type: 'text',
        text: JSON.stringify({
          ran: request.params.name,
          arguments: request.params.arguments ?? {},
        }),
      },
    ],
  };
});
await server.connect(new StdioServerTransport());
