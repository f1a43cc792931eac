import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  type CallToolResult,
  CreateMessageResultSchema,
  ElicitResultSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGatewayConfig } from '../config/parse.js';
import { createUpstreamPool, type UpstreamPool } from '../upstream/pool.js';
import { createGatewayServer, type GatewayServer } from './server.js';
import type { StatelessCallOutcome } from './stateless-session.js';

/** A 2025-11-25 server on loopback (MCP SDK 1.x, Streamable HTTP) whose tools ask mid-call. */
async function serveLegacyAsker(): Promise<{
  url: string;
  cancelled: string[];
  close(): Promise<void>;
}> {
  const cancelled: string[] = [];
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const build = () => {
    const server = new McpServer({ name: 'legacy-asker', version: '1.0.0' });
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
        onsessioninitialized: (sessionId) => transports.set(sessionId, created),
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

const textOf = (outcome: StatelessCallOutcome) =>
  'result' in outcome
    ? (outcome.result as CallToolResult).content
        .map((part) => (part.type === 'text' ? part.text : ''))
        .join('')
    : '';

describe('a 2025-era upstream that asks mid-call, serving a 2026-07-28 client', () => {
  let upstream: Awaited<ReturnType<typeof serveLegacyAsker>>;
  const pools: UpstreamPool[] = [];
  const gateways: GatewayServer[] = [];
  const stateKey = randomBytes(32);

  const startReplica = async (timeoutMs = 60_000) => {
    const config = parseGatewayConfig({
      mcpServers: { old: { url: upstream.url, sampling: 'deny' } },
      toolSearch: { enabled: 'off' },
      approval: { timeoutMs },
    });
    const pool = createUpstreamPool(config, { reconnect: false });
    await pool.start();
    const gateway = createGatewayServer({ pool, config });
    pools.push(pool);
    gateways.push(gateway);
    return gateway.statelessView({ principal: 'alice', stateKey });
  };
  const context = (more: Record<string, unknown> = {}) => ({
    requestId: 1,
    signal: new AbortController().signal,
    capabilities: { elicitation: { form: {} }, sampling: {} },
    ...more,
  });
  const questionOf = (outcome: StatelessCallOutcome) => {
    if (!('input' in outcome)) throw new Error(`not a question: ${JSON.stringify(outcome)}`);
    return outcome.input;
  };

  beforeAll(async () => {
    upstream = await serveLegacyAsker();
  });

  afterAll(async () => {
    await Promise.allSettled(gateways.map((gateway) => gateway.close()));
    await Promise.allSettled(pools.map((pool) => pool.close()));
    await upstream?.close();
  });

  it('holds the live call while its client is asked, round after round, and resumes it', async () => {
    const view = await startReplica();
    const first = questionOf(await view.callTool({ name: 'ask_name', arguments: {} }, context()));
    expect(first.inputRequests['elicitation']).toMatchObject({
      method: 'elicitation/create',
      params: { message: 'Your name?' },
    });
    const second = questionOf(
      await view.callTool(
        { name: 'ask_name', arguments: {} },
        context({
          requestState: first.requestState,
          inputResponses: { elicitation: { action: 'accept', content: { name: 'Ada' } } },
        }),
      ),
    );
    expect(second.inputRequests['elicitation']?.params?.['message']).toBe('Your town?');
    const done = await view.callTool(
      { name: 'ask_name', arguments: {} },
      context({
        requestState: second.requestState,
        inputResponses: { elicitation: { action: 'accept', content: { town: 'London' } } },
      }),
    );
    expect(textOf(done)).toBe('Hello, Ada of London');
  });

  it('says so when the retry lands on a replica that does not hold the call', async () => {
    const here = await startReplica();
    const there = await startReplica();
    const asked = questionOf(await here.callTool({ name: 'ask_name', arguments: {} }, context()));
    const retry = context({
      requestState: asked.requestState,
      inputResponses: { elicitation: { action: 'accept', content: { name: 'Bo' } } },
    });
    await expect(there.callTool({ name: 'ask_name', arguments: {} }, retry)).rejects.toThrow(
      /not held by this gateway.*another one/,
    );
  });

  it('refuses what the client did not declare, and sampling the policy denies', async () => {
    const view = await startReplica();
    const blind = await view.callTool(
      { name: 'ask_name', arguments: {} },
      context({ capabilities: { sampling: {} } }),
    );
    expect('result' in blind && blind.result.isError).toBe(true);
    const denied = await view.callTool({ name: 'sample', arguments: {} }, context());
    expect(textOf(denied)).toMatch(/policy denies sampling to server 'old'/);
  });

  it('cancels a held call upstream when its client does not answer in time', async () => {
    const view = await startReplica(200);
    const asked = questionOf(await view.callTool({ name: 'slow_ask', arguments: {} }, context()));
    await new Promise((resolve) => setTimeout(resolve, 600));
    await expect(
      view.callTool(
        { name: 'slow_ask', arguments: {} },
        context({ requestState: asked.requestState, inputResponses: {} }),
      ),
    ).rejects.toThrow(/expired|not held/);
    // The hold's deadline cancelled the call upstream.
    for (let tries = 0; tries < 50 && !upstream.cancelled.includes('slow_ask'); tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(upstream.cancelled).toContain('slow_ask');
  });

  it('refuses a retry that names another call, and cancels the held one', async () => {
    const view = await startReplica();
    const asked = questionOf(await view.callTool({ name: 'ask_name', arguments: {} }, context()));
    const other = await view.callTool(
      { name: 'ask_name', arguments: { extra: 1 } },
      context({
        requestState: asked.requestState,
        inputResponses: { elicitation: { action: 'accept', content: { name: 'Cy' } } },
      }),
    );
    expect(textOf(other)).toMatch(/another call/);
  });
});
