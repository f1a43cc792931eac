// An upstream for the console's browser tests, over stdio: `lookup` answers `found <key>`,
// or an error result (`isError`) for the key `missing`; `note_write` keeps a note (a write).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const TOOLS = [
  {
    name: 'lookup',
    description: 'Look a key up in the directory.',
    inputSchema: {
      type: 'object',
      properties: {
        key: { type: 'string', description: 'the key' },
        limit: { type: 'integer', minimum: 1, description: 'how many entries' },
        exact: { type: 'boolean' },
      },
      required: ['key'],
    },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'note_write',
    description: 'Write a note.',
    inputSchema: {
      type: 'object',
      properties: { text: { type: 'string' }, pinned: { type: 'boolean' } },
      required: ['text'],
    },
    annotations: { destructiveHint: true },
  },
];

const server = new Server(
  { name: 'console-upstream', version: '1.0.0' },
  { capabilities: { tools: {} } },
);
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const args = request.params.arguments ?? {};
  if (request.params.name === 'lookup') {
    return args.key === 'missing'
      ? { isError: true, content: [{ type: 'text', text: `no entry <b>${args.key}</b>` }] }
      : { content: [{ type: 'text', text: `found <i>${args.key}</i>` }] };
  }
  if (request.params.name === 'note_write') {
    return { content: [{ type: 'text', text: `noted ${args.text}` }] };
  }
  return {
    isError: true,
    content: [{ type: 'text', text: `unknown tool ${request.params.name}` }],
  };
});
await server.connect(new StdioServerTransport());
