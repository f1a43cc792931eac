// A stdio MCP server of the SDK v2 that serves 2026-07-28 only, whose tools come from
// PARITY_TOOLS (as echo-server.mjs's do): every tool first answers `input_required`,
// asking its caller to confirm, and on the retry with a yes answers with the name and the
// arguments it received.
import {
  acceptedContent,
  fromJsonSchema,
  inputRequired,
  McpServer,
} from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const tools = JSON.parse(process.env.PARITY_TOOLS ?? '[]');

serveStdio(
  () => {
    const server = new McpServer({ name: 'parity-asking-modern', version: '1.0.0' });
    for (const tool of tools) {
      server.registerTool(
        tool.name,
        { description: tool.description, inputSchema: fromJsonSchema(tool.inputSchema) },
        async (args, ctx) => {
          const answer = acceptedContent(ctx.mcpReq.inputResponses, 'confirm');
          if (answer === undefined) {
            return inputRequired({
              inputRequests: {
                confirm: inputRequired.elicit({
                  message: `Confirm ${tool.name}?`,
                  requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
                }),
              },
              requestState: `asked:${tool.name}`,
            });
          }
          if (answer.ok !== true) {
            return { content: [{ type: 'text', text: 'not confirmed' }], isError: true };
          }
          return {
            content: [
              { type: 'text', text: JSON.stringify({ ran: tool.name, arguments: args ?? {} }) },
            ],
          };
        },
      );
    }
    return server;
  },
  { legacy: 'reject' },
);
