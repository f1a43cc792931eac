// A stdio MCP server of the SDK v2 that serves 2026-07-28 only (`legacy: 'reject'`), and
// writes one line to $SPAWN_LOG each time it starts (to count the processes started).
import { appendFileSync } from 'node:fs';
import { fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

if (process.env.SPAWN_LOG) appendFileSync(process.env.SPAWN_LOG, `${process.pid}\n`);
const legacy = process.env.LEGACY === 'serve' ? 'serve' : 'reject';

serveStdio(
  () => {
    const server = new McpServer({ name: 'modern-stdio-fixture', version: '1.0.0' });
    server.registerTool(
      'shout',
      {
        description: 'Shouts a message',
        inputSchema: fromJsonSchema({
          type: 'object',
          properties: { message: { type: 'string' } },
          required: ['message'],
        }),
      },
      async ({ message }) => ({ content: [{ type: 'text', text: `${message.toUpperCase()}!` }] }),
    );
    server.registerTool('crash', { description: 'Ends the process' }, async () => {
      process.exit(1);
    });
    server.registerTool('wait', { description: 'Runs until it is cancelled' }, async (ctx) => {
      await new Promise((resolve) => ctx.mcpReq.signal.addEventListener('abort', resolve));
      process.stderr.write('wait cancelled\n');
      return { content: [{ type: 'text', text: 'cancelled' }] };
    });
    return server;
  },
  { legacy },
);
