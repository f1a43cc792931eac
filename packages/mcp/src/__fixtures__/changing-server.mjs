// An upstream whose tool list changes: `add_tool` adds a tool and sends
// notifications/tools/list_changed; `remove_tools` removes the added ones. Its
// tools/list is paginated (FIXTURE_PAGE_SIZE tools a page, default 2).
import { fileURLToPath } from 'node:url';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/** The changing server, unconnected; `env` as the script reads `process.env`. */
export function createChangingServer(env = {}) {
  const pageSize = Number(env.FIXTURE_PAGE_SIZE ?? 2);
  const server = new Server(
    { name: 'changing-fixture', version: '1.0.0' },
    { capabilities: { tools: { listChanged: true } } },
  );
  const base = [
    {
      name: 'echo',
      description: 'Echo a message back (changing fixture).',
      inputSchema: { type: 'object', properties: { message: { type: 'string' } } },
    },
    {
      name: 'add_tool',
      description: 'Add a tool named by `name` to this server and announce the change.',
      inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    },
    {
      name: 'remove_tools',
      description: 'Remove every added tool and announce the change.',
      inputSchema: { type: 'object', properties: {} },
    },
    {
      name: 'pinned_status',
      description: 'A tool the server pins with _meta.',
      inputSchema: { type: 'object', properties: {} },
      _meta: { 'anthropic/alwaysLoad': true },
    },
  ];
  let added = [];
  const all = () => [...base, ...added];
  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    const start = Number(request.params?.cursor ?? 0);
    const tools = all().slice(start, start + pageSize);
    const next = start + pageSize;
    return next < all().length ? { tools, nextCursor: String(next) } : { tools };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const args = request.params.arguments ?? {};
    switch (request.params.name) {
      case 'echo':
        return {
          content: [{ type: 'text', text: `changing-fixture echo: ${args.message ?? ''}` }],
        };
      case 'add_tool':
        added.push({
          name: String(args.name),
          description: `An added tool called ${args.name}.`,
          inputSchema: { type: 'object', properties: {} },
        });
        setTimeout(() => void server.sendToolListChanged(), 5);
        return { content: [{ type: 'text', text: `added ${args.name}` }] };
      case 'remove_tools':
        added = [];
        setTimeout(() => void server.sendToolListChanged(), 5);
        return { content: [{ type: 'text', text: 'removed' }] };
      default:
        if (added.some((tool) => tool.name === request.params.name)) {
          return { content: [{ type: 'text', text: `${request.params.name} ran` }] };
        }
        return {
          isError: true,
          content: [{ type: 'text', text: `unknown tool ${request.params.name}` }],
        };
    }
  });
  return server;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await createChangingServer(process.env).connect(new StdioServerTransport());
}
