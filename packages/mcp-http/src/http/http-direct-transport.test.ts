import { randomUUID } from 'node:crypto';
import { createServer, type Server as HttpServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ElicitRequestSchema,
  ElicitResultSchema,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DirectHttpTransport } from './http-direct-transport.js';

/**
 * The same MCP server behind two transports: the SDK's, and ours with its direct hot
 * path. Every raw request a client (or a hostile one) can send must get the same
 * status and the same answer from both.
 */

const MAX_BODY = 2_000;

/** Releases the `gate` tool's waiting calls. */
const gates = new Map<string, () => void>();

function mcpServer(): Server {
  const server = new Server(
    { name: 'direct-test', version: '1.0.0' },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: ['echo', 'progress', 'gate', 'ask'].map((name) => ({
      name,
      inputSchema: { type: 'object' as const },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const args = request.params.arguments ?? {};
    const { name } = request.params;
    if (name === 'progress') {
      const token = request.params._meta?.progressToken;
      if (token !== undefined) {
        for (const progress of [1, 2]) {
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken: token, progress, total: 2 },
          });
        }
      }
    }
    if (name === 'gate') {
      await new Promise<void>((resolve) => gates.set(String(args['key']), resolve));
    }
    if (name === 'ask') {
      const answer = await extra.sendRequest(
        {
          method: 'elicitation/create',
          params: { message: 'ok?', requestedSchema: { type: 'object', properties: {} } },
        },
        ElicitResultSchema,
      );
      return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
    }
    return { content: [{ type: 'text', text: `${name}:${JSON.stringify(args)}` }] };
  });
  return server;
}

type Transport = StreamableHTTPServerTransport | DirectHttpTransport;

/** An HTTP server whose sessions each get a fresh MCP server on `make()`'s transport. */
async function listen(
  make: (options: ConstructorParameters<typeof StreamableHTTPServerTransport>[0]) => Transport,
): Promise<{ url: string; http: HttpServer }> {
  const sessions = new Map<string, Transport>();
  const http = createServer((req: IncomingMessage, res) => {
    const id = req.headers['mcp-session-id'];
    const known = typeof id === 'string' ? sessions.get(id) : undefined;
    void (async () => {
      if (known !== undefined) return known.handleRequest(req, res);
      if (typeof id === 'string') {
        res.writeHead(404).end();
        return;
      }
      const transport = make({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => {
          sessions.set(sessionId, transport);
        },
      });
      await mcpServer().connect(transport);
      await transport.handleRequest(req, res);
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`, http };
}

const ACCEPT = 'application/json, text/event-stream';

interface Answer {
  status: number;
  contentType: string | null;
  /** The body: JSON, or the data of each SSE event, parsed. */
  body: unknown;
}

function parseSse(text: string): unknown[] {
  return text
    .split('\n\n')
    .map((event) => event.split('\n').find((line) => line.startsWith('data: ')))
    .filter((line): line is string => line !== undefined)
    .map((line) => JSON.parse(line.slice('data: '.length)));
}

async function send(
  url: string,
  session: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      accept: ACCEPT,
      'content-type': 'application/json',
      'mcp-session-id': session,
      'mcp-protocol-version': '2025-06-18',
      ...headers,
    },
    body,
  });
  const text = await response.text();
  const contentType = response.headers.get('content-type');
  let parsed: unknown = text;
  if (contentType?.startsWith('text/event-stream')) parsed = parseSse(text);
  else if (text !== '') parsed = JSON.parse(text);
  return { status: response.status, contentType, body: parsed };
}

async function initialize(url: string): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { accept: ACCEPT, 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: { elicitation: {} },
        clientInfo: { name: 'raw', version: '1' },
      },
    }),
  });
  await response.text();
  const session = response.headers.get('mcp-session-id')!;
  await send(url, session, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  return session;
}

const call = (id: unknown, name: string, args: Record<string, unknown> = {}, meta?: object) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name, arguments: args, ...(meta === undefined ? {} : { _meta: meta }) },
  });

let sdk: { url: string; http: HttpServer };
let direct: { url: string; http: HttpServer };

beforeAll(async () => {
  sdk = await listen(
    (options) => new StreamableHTTPServerTransport({ ...options, maxRequestBodySize: MAX_BODY }),
  );
  direct = await listen(
    (options) => new DirectHttpTransport(options, MAX_BODY, { keepAliveMs: 60 }),
  );
});

afterAll(async () => {
  for (const { http } of [sdk, direct]) {
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  }
});

/** The cases where both transports must answer alike: [name, body, headers]. */
const cases: [string, string, Record<string, string>?][] = [
  ['a call', call(1, 'echo', { text: 'hi' })],
  ['a call with a string id', call('a-1', 'echo', { n: 2 })],
  ['a call with progress', call(2, 'progress', {}, { progressToken: 'p' })],
  ['an unknown method', JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'nope/nothing' })],
  ['tools/list', JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/list' })],
  ['invalid JSON', '{"jsonrpc": "2.0", "id": 5,'],
  ['not JSON-RPC 2.0', JSON.stringify({ jsonrpc: '1.0', id: 6, method: 'tools/list' })],
  ['a null id', JSON.stringify({ jsonrpc: '2.0', id: null, method: 'tools/list' })],
  ['a fractional id', JSON.stringify({ jsonrpc: '2.0', id: 1.5, method: 'tools/list' })],
  ['an extra top-level key', JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list', x: 1 })],
  ['a bare string', JSON.stringify('tools/call')],
  ['null', 'null'],
  ['an empty body', ''],
  [
    'a notification',
    JSON.stringify({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' }),
  ],
  ['a batch of two calls', `[${call(8, 'echo', { a: 1 })},${call(9, 'echo', { b: 2 })}]`],
  ['an empty batch', '[]'],
  [
    'a second initialize',
    JSON.stringify({ jsonrpc: '2.0', id: 10, method: 'initialize', params: {} }),
  ],
  ['a body over the limit', call(11, 'echo', { text: 'x'.repeat(MAX_BODY) })],
  ['no event-stream in Accept', call(12, 'echo'), { accept: 'application/json' }],
  ['a text Content-Type', call(13, 'echo'), { 'content-type': 'text/plain' }],
  [
    'a JSON Content-Type with a charset',
    call(14, 'echo'),
    { 'content-type': 'application/json; charset=utf-8' },
  ],
  ['an unknown protocol version', call(15, 'echo'), { 'mcp-protocol-version': '1999-01-01' }],
];

describe('DirectHttpTransport against the SDK transport', () => {
  it.each(cases)('answers %s as the SDK does', async (_name, body, headers) => {
    const [a, b] = await Promise.all(
      [sdk, direct].map(async ({ url }) => send(url, await initialize(url), body, headers)),
    );
    expect(b).toEqual(a);
  });

  it('answers a GET, a DELETE and a POST after the DELETE as the SDK does', async () => {
    const answers = await Promise.all(
      [sdk, direct].map(async ({ url }) => {
        const session = await initialize(url);
        const get = await fetch(url, {
          headers: { accept: 'application/json', 'mcp-session-id': session },
        });
        const del = await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': session } });
        const after = await send(url, session, call(1, 'echo'));
        return [get.status, await get.text(), del.status, after.status];
      }),
    );
    expect(answers[1]).toEqual(answers[0]);
  });

  it('serves the real SDK client: calls, progress and an elicitation on the request stream', async () => {
    const client = new Client({ name: 'c', version: '1' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: {} }));
    await client.connect(new StreamableHTTPClientTransport(new URL(direct.url)));
    const progress: number[] = [];
    const many = await Promise.all(
      Array.from({ length: 20 }, (_, i) => client.callTool({ name: 'echo', arguments: { i } })),
    );
    expect(many.map((result) => (result.content as { text: string }[])[0]!.text)).toEqual(
      Array.from({ length: 20 }, (_, i) => `echo:{"i":${i}}`),
    );
    await client.callTool({ name: 'progress', arguments: {} }, undefined, {
      onprogress: ({ progress: p }) => progress.push(p),
    });
    expect(progress).toEqual([1, 2]);
    const asked = await client.callTool({ name: 'ask', arguments: {} });
    expect((asked.content as { text: string }[])[0]!.text).toBe('{"action":"accept","content":{}}');
    await client.close();
  });
});

describe('DirectHttpTransport on its own', () => {
  it('sends the headers of a slow answer before the answer, then keep-alive comments', async () => {
    const session = await initialize(direct.url);
    const response = await fetch(direct.url, {
      method: 'POST',
      headers: { accept: ACCEPT, 'content-type': 'application/json', 'mcp-session-id': session },
      body: call(1, 'gate', { key: 'slow' }),
    });
    // The headers came while the call still waits on its gate.
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('mcp-session-id')).toBe(session);
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toBe(': keepalive\n\n');
    gates.get('slow')!();
    let rest = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest += new TextDecoder().decode(value);
    }
    expect(parseSse(rest)).toEqual([
      {
        jsonrpc: '2.0',
        id: 1,
        result: { content: [{ type: 'text', text: 'gate:{"key":"slow"}' }] },
      },
    ]);
  });

  it('refuses a second request with the id of one still in flight, and serves the id again once answered', async () => {
    const session = await initialize(direct.url);
    const pending = send(direct.url, session, call(7, 'gate', { key: 'twice' }));
    await expect.poll(() => gates.has('twice')).toBe(true);
    const again = await send(direct.url, session, call(7, 'echo'));
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: { code: -32600 } });
    gates.get('twice')!();
    expect((await pending).status).toBe(200);
    gates.delete('twice');
    expect((await send(direct.url, session, call(7, 'echo'))).status).toBe(200);
  });

  it('refuses a reused id across the two paths: direct first, then the SDK’s', async () => {
    const session = await initialize(direct.url);
    const pending = send(direct.url, session, call(11, 'gate', { key: 'cross-1' }));
    await expect.poll(() => gates.has('cross-1')).toBe(true);
    // A content type the direct path does not take as it is: the SDK's path serves it.
    const again = await send(direct.url, session, call(11, 'echo', { second: true }), {
      'content-type': 'application/json; charset=utf-8',
    });
    expect(JSON.stringify(again.body)).not.toContain('gate:');
    expect(again.body).toMatchObject([{ id: 11, error: { code: -32600 } }]);
    gates.get('cross-1')!();
    expect((await pending).body).toEqual([
      {
        jsonrpc: '2.0',
        id: 11,
        result: { content: [{ type: 'text', text: 'gate:{"key":"cross-1"}' }] },
      },
    ]);
    gates.delete('cross-1');
  });

  it('refuses a reused id across the two paths: the SDK’s first, then direct', async () => {
    const session = await initialize(direct.url);
    const pending = send(direct.url, session, call(12, 'gate', { key: 'cross-2' }), {
      'content-type': 'application/json; charset=utf-8',
    });
    await expect.poll(() => gates.has('cross-2')).toBe(true);
    const again = await send(direct.url, session, call(12, 'echo', { second: true }));
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: { code: -32600 } });
    gates.get('cross-2')!();
    expect((await pending).body).toEqual([
      {
        jsonrpc: '2.0',
        id: 12,
        result: { content: [{ type: 'text', text: 'gate:{"key":"cross-2"}' }] },
      },
    ]);
    gates.delete('cross-2');
    expect((await send(direct.url, session, call(12, 'echo'))).status).toBe(200);
  });

  it('forgets the stream of a client that went away, and the session goes on', async () => {
    const session = await initialize(direct.url);
    const controller = new AbortController();
    const gone = fetch(direct.url, {
      method: 'POST',
      headers: { accept: ACCEPT, 'content-type': 'application/json', 'mcp-session-id': session },
      body: call(9, 'gate', { key: 'gone' }),
      signal: controller.signal,
    }).catch((error: unknown) => error);
    await expect.poll(() => gates.has('gone')).toBe(true);
    controller.abort();
    await gone;
    // The stream is forgotten (its id is free again), and the late answer breaks nothing.
    await expect
      .poll(async () => (await send(direct.url, session, call(9, 'echo'))).status)
      .toBe(200);
    gates.get('gone')!();
    expect((await send(direct.url, session, call(10, 'echo', { after: true }))).body).toEqual([
      {
        jsonrpc: '2.0',
        id: 10,
        result: { content: [{ type: 'text', text: 'echo:{"after":true}' }] },
      },
    ]);
  });
});
