// An upstream that serves `echo` and `crash`; `crash` kills the process mid-call. Run as a
// script it serves stdio; `createCrashServer` builds the same server, whose `crash` calls
// `host.crash` (in-process: the link closes, as the process's pipes would).
import { fileURLToPath } from 'node:url';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/**
 * The crash server, unconnected.
 *
 * @param {{ crash: () => void }} [host] - what `crash` does (the script: exit)
 */
export function createCrashServer(
  host = {
    crash: () => {
      process.stderr.write('crash fixture: exiting on purpose\n');
      process.exit(1);
    },
  },
) {
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
      setTimeout(() => host.crash(), 20);
      return new Promise(() => {});
    }
    return {
      content: [
        { type: 'text', text: `crash-fixture echo: ${request.params.arguments?.message ?? ''}` },
      ],
    };
  });
  return server;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await createCrashServer().connect(new StdioServerTransport());
}
