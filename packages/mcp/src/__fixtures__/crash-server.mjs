// An upstream that serves `echo` and `crash`; `crash` kills the process mid-call.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const server = new Server(
  { name: 'crash-fixture', version: '1.0.0' },
  { capabilities: { tools: {} } },
);
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    {
      name: 'echo',
      description: 'Echo a message back (crash fixture).',
      inputSchema: { type: 'object', properties: { message: { type: 'string' } } },
    },
    {
      name: 'crash',
      description: 'Crash the server while the call is running.',
      inputSchema: { type: 'object', properties: {} },
    },
  ],
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  if (request.params.name === 'crash') {
    process.stderr.write('crash fixture: exiting on purpose\n');
    setTimeout(() => process.exit(1), 20);
    return new Promise(() => {});
  }
  return {
    content: [
      { type: 'text', text: `crash-fixture echo: ${request.params.arguments?.message ?? ''}` },
    ],
  };
});
await server.connect(new StdioServerTransport());
