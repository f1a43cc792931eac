import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import {
  createGatewayServer,
  createUpstreamPool,
  type GatewayServer,
  type UpstreamPool,
} from '@tool-search/mcp';
import { parseGatewayConfig } from '@tool-search/mcp/config';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingInProcess } from '../../../mcp/src/__fixtures__/in-process.js';
import { tempWorkspace } from '../../../mcp/src/__fixtures__/servers.js';
import { filesystemInProcess } from '../../../mcp/src/__fixtures__/worker-server.js';
import { connectHttpClient } from '../__fixtures__/clients.js';
import type { GatewayHttpListener } from './http.js';
import { listenGatewayHttp } from './http.js';

const TOKEN = 'fuzz-admin-token-0123456789';
const PROFILE_TOKEN = 'fuzz-files-token-0123456789';

/** One raw HTTP exchange. */
interface RawResponse {
  status: number;
  contentType: string;
  body: string;
}

/** Sends raw bytes with exactly these headers (none added but Content-Length). */
function send(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: Buffer | string | undefined,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method,
        headers,
        setHost: headers['host'] === undefined,
        timeout: 15_000,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            contentType: String(response.headers['content-type'] ?? ''),
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error('no answer within 15 s')));
    request.on('error', reject);
    request.end(body);
  });
}

/** Checks one JSON-RPC message the server sent: a response, or a request/notification of its own. */
function expectJsonRpcMessage(message: unknown): void {
  expect(typeof message).toBe('object');
  expect(message).not.toBeNull();
  const value = message as Record<string, unknown>;
  expect(value['jsonrpc']).toBe('2.0');
  if ('method' in value) {
    expect(typeof value['method']).toBe('string');
    return;
  }
  expect('result' in value !== 'error' in value).toBe(true);
  expect(['string', 'number'].includes(typeof value['id']) || value['id'] === null).toBe(true);
  if ('error' in value) {
    const error = value['error'] as Record<string, unknown>;
    expect(Number.isInteger(error['code'])).toBe(true);
    expect(typeof error['message']).toBe('string');
  }
}

/** The JSON-RPC messages of a response body (JSON, or SSE `data:` lines); fails on anything else. */
function messagesOf(response: RawResponse): unknown[] {
  expect(response.status).toBeGreaterThanOrEqual(100);
  expect(response.status).toBeLessThan(600);
  if (response.body === '') return [];
  if (response.contentType.includes('text/event-stream')) {
    const data = response.body
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => JSON.parse(line.slice(5)) as unknown);
    for (const message of data) expectJsonRpcMessage(message);
    return data;
  }
  expect(response.contentType).toContain('application/json');
  const parsed: unknown = JSON.parse(response.body);
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  for (const message of messages) expectJsonRpcMessage(message);
  return messages;
}

const printable = fc.stringMatching(/^[ -~]{0,40}$/);
const methods = fc.constantFrom(
  'initialize',
  'ping',
  'tools/list',
  'tools/call',
  'notifications/initialized',
  'notifications/cancelled',
  'resources/list',
  'prompts/list',
  'logging/setLevel',
  'completion/complete',
);
const jsonRpcId = fc.oneof(
  fc.integer(),
  fc.string({ maxLength: 20 }),
  fc.constantFrom(null, 1.5, 1e308, -0, { id: 1 }, [1], true),
);
const jsonRpcMessage = fc.record(
  {
    jsonrpc: fc.oneof(fc.constant('2.0'), fc.jsonValue()),
    id: jsonRpcId,
    method: fc.oneof(methods, fc.string({ maxLength: 20 })),
    params: fc.jsonValue({ maxDepth: 3 }),
    result: fc.jsonValue({ maxDepth: 2 }),
  },
  { requiredKeys: [] },
);
const initialize = fc.record({
  jsonrpc: fc.constant('2.0'),
  id: fc.integer({ min: 1, max: 1000 }),
  method: fc.constant('initialize'),
  params: fc.record({
    protocolVersion: fc.oneof(fc.constantFrom('2025-06-18', '2025-03-26', '2024-11-05'), printable),
    capabilities: fc.oneof(fc.constant({}), fc.jsonValue({ maxDepth: 2 })),
    clientInfo: fc.record({ name: fc.string(), version: fc.string() }),
  }),
});
const deep = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const body = fc.oneof(
  fc.uint8Array({ maxLength: 2_000 }).map((bytes) => Buffer.from(bytes)),
  fc.json({ maxDepth: 4 }),
  jsonRpcMessage.map((message) => JSON.stringify(message)),
  fc.array(jsonRpcMessage, { maxLength: 5 }).map((batch) => JSON.stringify(batch)),
  initialize.map((message) => JSON.stringify(message)),
  fc.constantFrom(
    '',
    '{',
    'null',
    '[]',
    '{"jsonrpc":"2.0","id":1e400,"method":"ping"}',
    '{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"tools/list"}',
    '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":1e999}}',
    `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":${deep(50_000)}}`,
    `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"tool_call","arguments":{"name":"echo","arguments":{"message":${deep(50_000)}}}}}`,
    deep(200_000),
    // Past the gateway's 4 MiB body limit.
    `{"jsonrpc":"2.0","id":4,"method":"ping","params":{"pad":"${'x'.repeat(5 * 1024 * 1024)}"}}`,
  ),
);

describe('the Streamable HTTP endpoint under arbitrary requests (fuzzed)', () => {
  const workspace = tempWorkspace();
  let pool: UpstreamPool;
  let gateway: GatewayServer;
  let listener: GatewayHttpListener;
  let url: URL;
  let sessionId = '';
  let own = '';

  const baseHeaders = (): Record<string, string> => ({
    host: own.slice('http://'.length),
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    authorization: `Bearer ${TOKEN}`,
    'mcp-protocol-version': '2025-06-18',
  });

  beforeAll(async () => {
    const config = parseGatewayConfig({
      mcpServers: {
        everything: everythingInProcess(),
        filesystem: filesystemInProcess(workspace.directory),
      },
      toolSearch: { enabled: 'on' },
      profiles: { files: { enabledToolsets: ['mcp-filesystem'], token: PROFILE_TOKEN } },
    });
    pool = createUpstreamPool(config, { callTimeoutMs: 5_000 });
    await pool.start();
    gateway = createGatewayServer({ pool, config, callTimeoutMs: 5_000 });
    listener = await listenGatewayHttp(gateway, { token: TOKEN, maxSessions: 10_000 });
    url = new URL(listener.url);
    own = `http://127.0.0.1:${url.port}`;
    const opened = await send(
      url,
      'POST',
      baseHeaders(),
      JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'fuzz', version: '0' },
        },
      }),
    );
    expect(opened.status).toBe(200);
    sessionId = gateway.sessions()[0]?.id ?? '';
    expect(sessionId).not.toBe('');
    await send(
      url,
      'POST',
      { ...baseHeaders(), 'mcp-session-id': sessionId },
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    );
  }, 60_000);

  afterAll(async () => {
    await gateway?.close();
    await pool?.close();
    workspace.cleanup();
  });

  it('answers any body with any headers with an HTTP response whose body is JSON-RPC', async () => {
    const headers = fc.record(
      {
        'content-type': fc.oneof(
          fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', ''),
          printable,
        ),
        accept: fc.oneof(
          fc.constantFrom(
            'application/json, text/event-stream',
            'application/json',
            'text/event-stream',
            '*/*',
          ),
          printable,
        ),
        'mcp-session-id': fc.oneof(
          fc.constant('valid'),
          fc.constant('').map(() => randomUUID()),
          printable,
        ),
        'mcp-protocol-version': fc.oneof(
          fc.constantFrom('2025-06-18', '2025-03-26', '2024-11-05', '1999-01-01'),
          printable,
        ),
        authorization: fc.oneof(
          fc.constantFrom('admin', 'profile', 'Bearer wrong-token-0123456789', 'Basic YTpi'),
          printable,
        ),
        origin: fc.oneof(fc.constantFrom('own', 'http://attacker.example', 'null'), printable),
        host: fc.oneof(fc.constantFrom('own', 'localhost', 'attacker.example', ''), printable),
      },
      { requiredKeys: [] },
    );
    const method = fc.constantFrom('POST', 'POST', 'POST', 'OPTIONS', 'PUT', 'PATCH', 'DELETE');
    await fc.assert(
      fc.asyncProperty(method, headers, body, async (verb, chosen, payload) => {
        const resolved: Record<string, string> = {};
        for (const [name, value] of Object.entries(chosen)) {
          if (value === 'valid') resolved[name] = sessionId;
          else if (value === 'admin') resolved[name] = `Bearer ${TOKEN}`;
          else if (value === 'profile') resolved[name] = `Bearer ${PROFILE_TOKEN}`;
          else if (value === 'own') resolved[name] = name === 'host' ? own.slice(7) : own;
          else resolved[name] = value;
        }
        // The shared session must outlive the run: a DELETE only ever names another one.
        if (verb === 'DELETE' && resolved['mcp-session-id'] === sessionId) {
          resolved['mcp-session-id'] = randomUUID();
        }
        const response = await send(url, verb, resolved, verb === 'OPTIONS' ? undefined : payload);
        messagesOf(response);
      }),
      { numRuns: 200 },
    );
  });

  it('answers arbitrary tools/call and tools/list params in a live session with a well-formed response of the same id', async () => {
    const name = fc.oneof(
      fc.constantFrom(
        'tool_search',
        'tool_describe',
        'tool_call',
        'echo',
        'get-sum',
        'read_text_file',
        'list_directory',
        'no_such_tool',
        '__proto__',
        '',
      ),
      fc.string({ maxLength: 30 }),
      fc.constant('n'.repeat(1_000_000)),
    );
    const safeInner = fc.constantFrom('echo', 'get-sum', 'read_text_file', 'nope', 'tool_call');
    const argumentsValue = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.json(),
      fc.record(
        {
          query: fc.oneof(fc.string(), fc.jsonValue()),
          limit: fc.jsonValue(),
          name: fc.oneof(safeInner, fc.jsonValue()),
          arguments: fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.json()),
          message: fc.jsonValue(),
          a: fc.jsonValue(),
          b: fc.jsonValue(),
          path: fc.oneof(fc.constant(`${workspace.directory}/notes.txt`), fc.string()),
        },
        { requiredKeys: [] },
      ),
    );
    // Calls a model would make, with odd values inside: most reach a tool and succeed.
    const plausible = fc.oneof(
      fc.record({
        name: fc.constant('tool_search'),
        arguments: fc.record(
          { query: fc.oneof(fc.string(), fc.constant('echo a message')), limit: fc.jsonValue() },
          { requiredKeys: ['query'] },
        ),
      }),
      fc.record({
        name: fc.constant('tool_describe'),
        arguments: fc.record({ name: fc.oneof(safeInner, fc.string()) }),
      }),
      fc.record({
        name: fc.constantFrom('tool_call', 'echo'),
        arguments: fc.oneof(
          fc.record({ message: fc.string() }),
          fc.record({ name: safeInner, arguments: fc.record({ message: fc.string() }) }),
        ),
      }),
    );
    const params = fc.oneof(
      plausible,
      fc.record(
        { name, arguments: argumentsValue, _meta: fc.jsonValue({ maxDepth: 2 }) },
        { requiredKeys: ['name'] },
      ),
      fc.jsonValue({ maxDepth: 3 }),
      fc.record({ cursor: fc.jsonValue() }, { requiredKeys: [] }),
    );
    const id = fc.oneof(fc.integer({ min: 1 }), fc.string({ minLength: 1, maxLength: 16 }));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('tools/call', 'tools/call', 'tools/list'),
        id,
        params,
        async (method, requestId, requestParams) => {
          const response = await send(
            url,
            'POST',
            { ...baseHeaders(), 'mcp-session-id': sessionId },
            JSON.stringify({ jsonrpc: '2.0', id: requestId, method, params: requestParams }),
          );
          const messages = messagesOf(response) as Record<string, unknown>[];
          // The SDK refuses params that break the JSON-RPC schema (e.g. `_meta: ""`) as a
          // whole message: 400 with an error of id null. Anything else answers this id.
          const refused =
            response.status === 400 && messages.length === 1 && messages[0]?.['id'] === null;
          const answer = messages.find((message) => message['id'] === requestId);
          if (!refused)
            expect(answer, `no answer with id ${JSON.stringify(requestId)}`).toBeDefined();
          if (answer !== undefined && 'result' in answer && method === 'tools/call') {
            const result = answer['result'] as { content?: unknown };
            expect(Array.isArray(result.content)).toBe(true);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('closes the connection of a request it refused before reading its body, so that the next request on a kept-alive socket gets an answer', async () => {
    const tooLarge = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'ping',
      pad: 'x'.repeat(5 << 20),
    });
    for (const headers of [
      baseHeaders(),
      { ...baseHeaders(), origin: 'http://attacker.example' },
    ]) {
      const refused = await send(url, 'POST', headers, tooLarge);
      expect(refused.status).toBeGreaterThanOrEqual(400);
      messagesOf(refused);
      const next = await send(url, 'POST', baseHeaders(), '{}');
      expect(next.status).toBe(400);
    }
  });

  it('still serves a real SDK client afterwards', async () => {
    const client = await connectHttpClient(listener.url, { token: TOKEN });
    try {
      expect(await client.names()).toEqual(
        expect.arrayContaining(['tool_search', 'tool_describe', 'tool_call']),
      );
      const found = await client.bridge('tool_search', { query: 'echo a message' });
      expect((found['matches'] as { name: string }[]).map((match) => match.name)).toContain('echo');
      const echoed = await client.call('tool_call', {
        name: 'echo',
        arguments: { message: 'still here' },
      });
      expect(echoed.isError).not.toBe(true);
      expect(JSON.stringify(echoed.content)).toContain('still here');
    } finally {
      await client.close();
    }
  });
});
