import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CreateMessageResultSchema, ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';

/** A running {@link serveLegacyAsker}: its URL and the calls it saw cancelled. */
export interface LegacyAsker {
  url: string;
  cancelled: string[];
  close(): Promise<void>;
}

/** A 2025-11-25 server on loopback (MCP SDK 1.x, Streamable HTTP) whose tools ask mid-call. */
/**
 * Tools: `ask_name` (two elicitations), `sample` (sampling), `slow_ask` (an elicitation it
 * waits on; its cancellation is recorded).
 */
export async function serveLegacyAsker(): Promise<LegacyAsker> {
  const cancelled: string[] = [];
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const build = () => {
    const server = new McpServer(
      { name: 'legacy-asker', version: '1.0.0' },
      { capabilities: { logging: {} } },
    );
    server.registerTool('ask_name', { inputSchema: {} }, async (_args, extra) => {
      const first = await extra.sendRequest(
        {
          method: 'elicitation/create',
          params: {
            message: 'Your name?',
            requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
          },
        },
        ElicitResultSchema,
      );
      // A log line between the questions: it reaches the request that waits on the call.
      await extra.sendNotification({
        method: 'notifications/message',
        params: { level: 'info', data: `heard ${String(first.content?.['name'])}` },
      });
      const second = await extra.sendRequest(
        {
          method: 'elicitation/create',
          params: {
            message: 'Your town?',
            requestedSchema: { type: 'object', properties: { town: { type: 'string' } } },
          },
        },
        ElicitResultSchema,
      );
      return {
        content: [
          {
            type: 'text' as const,
            text: `Hello, ${first.content?.['name']} of ${second.content?.['town']}`,
          },
        ],
      };
    });
    server.registerTool('sample', { inputSchema: {} }, async (_args, extra) => {
      try {
        const answer = await extra.sendRequest(
          {
            method: 'sampling/createMessage',
            params: {
              messages: [{ role: 'user', content: { type: 'text', text: 'hi?' } }],
              maxTokens: 5,
            },
          },
          CreateMessageResultSchema,
        );
        return {
          content: [{ type: 'text' as const, text: `sampled: ${JSON.stringify(answer.content)}` }],
        };
      } catch (error) {
        return {
          content: [{ type: 'text' as const, text: `refused: ${(error as Error).message}` }],
          isError: true,
        };
      }
    });
    server.registerTool('slow_ask', { inputSchema: {} }, async (_args, extra) => {
      extra.signal.addEventListener('abort', () => cancelled.push('slow_ask'));
      try {
        await extra.sendRequest(
          {
            method: 'elicitation/create',
            params: {
              message: 'Still there?',
              requestedSchema: { type: 'object', properties: {} },
            },
          },
          ElicitResultSchema,
        );
        return { content: [{ type: 'text' as const, text: 'answered' }] };
      } catch (error) {
        return {
          content: [{ type: 'text' as const, text: `ended: ${(error as Error).message}` }],
          isError: true,
        };
      }
    });
    return server;
  };
  const http: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body =
      chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? transports.get(id) : undefined;
    if (transport === undefined) {
      if (body?.method !== 'initialize') {
        res.writeHead(400, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: body?.id ?? null,
            error: { code: -32000, message: 'no session' },
          }),
        );
        return;
      }
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (sessionId) => {
          transports.set(sessionId, created);
        },
      });
      transport = created;
      await build().connect(created);
    }
    await transport.handleRequest(req, res, body);
  });
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    cancelled,
    close: async () => {
      for (const transport of transports.values()) await transport.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
