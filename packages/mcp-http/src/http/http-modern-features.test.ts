import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FeatureGateway,
  startFeatureGateway,
} from '../../../mcp/src/__fixtures__/feature-gateway.js';
import { listenGatewayHttp } from './http.js';
import type { GatewayHttpListener } from './http-options.js';

const MODERN = '2026-07-28';
const ADMIN = 'admin-token-0123456789abcdef';
const ALPHA = 'alpha-token-0123456789abcdef';

type Json = Record<string, unknown>;

function envelope(extra: Json = {}): Json {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
    ...extra,
  };
}

/** Every JSON-RPC message of a response (one JSON body, or the data lines of an SSE stream). */
function messagesOf(text: string): Json[] {
  if (text.startsWith('{')) return [JSON.parse(text) as Json];
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)) as Json);
}

describe('resources, prompts and completions on the 2026-07-28 leg', () => {
  let setup: FeatureGateway;
  let listener: GatewayHttpListener;
  let id = 0;

  beforeAll(async () => {
    setup = await startFeatureGateway({
      config: {
        profiles: { alphaOnly: { enabledToolsets: ['mcp-alpha'], token: ALPHA } },
        guardrails: { resources: { deny: ['alpha/alpha://items/9*'] }, prompts: { deny: [] } },
      },
    });
    listener = await listenGatewayHttp(setup.gateway, { token: ADMIN });
  }, 30_000);

  afterAll(async () => {
    await listener?.close();
    await setup?.close();
  });

  /** One modern request: every message of its response. */
  const modern = async (
    method: string,
    params: Json = {},
    options: { token?: string; meta?: Json; signal?: AbortSignal } = {},
  ): Promise<{ status: number; messages: Json[] }> => {
    id += 1;
    const response = await fetch(listener.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${options.token ?? ADMIN}`,
        'mcp-protocol-version': MODERN,
        'mcp-method': method,
        ...(typeof params['name'] === 'string' ? { 'mcp-name': params['name'] } : {}),
        ...(typeof params['uri'] === 'string' ? { 'mcp-name': params['uri'] } : {}),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method,
        params: { ...params, _meta: envelope(options.meta) },
      }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    return { status: response.status, messages: messagesOf(await response.text()) };
  };
  const answer = async (method: string, params: Json = {}, token = ADMIN) => {
    const { messages } = await modern(method, params, { token });
    return messages.at(-1)!;
  };

  /** A 2025 client over the same endpoint, with a token. */
  const legacy = async (token: string) => {
    const client = new Client({ name: 'legacy', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(listener.url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    return client;
  };

  it('declares in discover what the servers behind it offer', async () => {
    const discover = await answer('server/discover');
    expect((discover['result'] as Json)['capabilities']).toMatchObject({
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      completions: {},
      logging: {},
    });
  });

  it('merges lists as the 2025 leg does, each with ttlMs and cacheScope (private: profiles)', async () => {
    const resources = (await answer('resources/list'))['result'] as Json;
    expect((resources['resources'] as Json[]).map((resource) => resource['uri'])).toEqual([
      'shared://one',
      'alpha://own',
      'beta://own',
    ]);
    expect(resources).toMatchObject({ ttlMs: expect.any(Number), cacheScope: 'private' });
    const templates = (await answer('resources/templates/list'))['result'] as Json;
    expect(templates).toMatchObject({ cacheScope: 'private' });
    expect((templates['resourceTemplates'] as Json[]).map((t) => t['uriTemplate'])).toEqual([
      'alpha://items/{id}',
      'beta://items/{id}',
    ]);
    const prompts = (await answer('prompts/list'))['result'] as Json;
    expect((prompts['prompts'] as Json[]).map((prompt) => prompt['name'])).toEqual([
      'alpha_review',
      'beta_review',
    ]);
    expect(prompts).toMatchObject({ cacheScope: 'private' });
    // A cursor the gateway did not give is refused; its own is an offset any replica reads.
    const bad = await answer('resources/list', { cursor: 'nope' });
    expect((bad['error'] as Json)['code']).toBe(-32602);
  });

  it('meets the same outcome as the 2025 leg for a read, a get and a completion', async () => {
    const client = await legacy(ADMIN);
    try {
      for (const uri of ['shared://one', 'beta://own', 'alpha://items/7']) {
        const read = (await answer('resources/read', { uri }))['result'] as Json;
        expect(read['contents']).toEqual((await client.readResource({ uri })).contents);
        expect(read).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
      }
      const get = (
        await answer('prompts/get', {
          name: 'beta_review',
          arguments: { topic: 'the plan' },
        })
      )['result'] as Json;
      expect(get['messages']).toEqual(
        (await client.getPrompt({ name: 'beta_review', arguments: { topic: 'the plan' } }))
          .messages,
      );
      const ref = { type: 'ref/resource' as const, uri: 'alpha://items/{id}' };
      const completed = (
        await answer('completion/complete', {
          ref,
          argument: { name: 'id', value: '1' },
        })
      )['result'] as Json;
      expect(completed['completion']).toEqual(
        (await client.complete({ ref, argument: { name: 'id', value: '1' } })).completion,
      );
    } finally {
      await client.close();
    }
    const reads = setup.activity.filter(
      (entry) => entry.kind === 'resource' && entry.name === 'beta://own',
    );
    expect(reads.map((entry) => [entry.sessionId.startsWith('stateless:'), entry.status])).toEqual([
      [true, 'ok'],
      [false, 'ok'],
    ]);
  });

  it('answers an out-of-scope, a denied and an unknown URI alike (-32602 with the URI)', async () => {
    // The URI is taken out of the message, so that two URIs can be compared.
    const errorOf = async (uri: string, token: string) => {
      const error = (await answer('resources/read', { uri }, token))['error'] as Json;
      return {
        code: error['code'],
        message: String(error['message']).replace(uri, '<uri>'),
        data:
          error['data'] === undefined ? undefined : { ...(error['data'] as Json), uri: '<uri>' },
      };
    };
    // Two servers serve resources: an unknown URI is the gateway's own not-found.
    const unknown = await errorOf('nowhere://x', ADMIN);
    expect(unknown).toEqual({
      code: -32602,
      message: 'Resource not found',
      data: { uri: '<uri>' },
    });
    expect(await errorOf('alpha://items/99', ADMIN)).toEqual(unknown);
    // One server in scope serves resources: every URI goes to it, out-of-scope ones too.
    expect(await errorOf('beta://own', ALPHA)).toEqual(await errorOf('nowhere://x', ALPHA));
    expect((await errorOf('beta://own', ALPHA)).code).toBe(-32602);
    // The scope's lists and prompt names, and a prompt out of scope is an unknown one.
    const listed = (await answer('prompts/list', {}, ALPHA))['result'] as Json;
    expect((listed['prompts'] as Json[]).map((prompt) => prompt['name'])).toEqual(['alpha_review']);
    const outOfScope = (await answer('prompts/get', { name: 'beta_review' }, ALPHA))[
      'error'
    ] as Json;
    const missing = (await answer('prompts/get', { name: 'nope' }, ALPHA))['error'] as Json;
    expect(outOfScope['code']).toBe(missing['code']);
  });

  it("keeps a tool's title, annotations and output schema, and its structured content, in both eras", async () => {
    const client = await legacy(ADMIN);
    try {
      const listed = ((await answer('tools/list'))['result'] as { tools: Json[] }).tools;
      const sum = listed.find((tool) => tool['name'] === 'alpha_sum');
      expect(sum).toMatchObject({
        title: 'Sum (alpha)',
        annotations: { readOnlyHint: true },
        outputSchema: { type: 'object', properties: { total: { type: 'number' } } },
      });
      const legacyTools = (await client.listTools()).tools;
      expect(legacyTools.find((tool) => tool.name === 'alpha_sum')).toEqual(sum);
      const called = (
        await answer('tools/call', {
          name: 'alpha_sum',
          arguments: { a: 2, b: 3 },
        })
      )['result'] as Json;
      expect(called['structuredContent']).toEqual({ total: 5 });
      const legacyCall = await client.callTool({ name: 'alpha_sum', arguments: { a: 2, b: 3 } });
      expect(legacyCall.structuredContent).toEqual({ total: 5 });
    } finally {
      await client.close();
    }
  });

  it('sends an upstream log of a call on its stream at the request level, the server as logger', async () => {
    const logsOf = async (meta: Json) => {
      const { messages } = await modern(
        'tools/call',
        { name: 'alpha_log', arguments: { count: 3 } },
        { meta },
      );
      return messages.filter((message) => message['method'] === 'notifications/message');
    };
    const info = await logsOf({ 'io.modelcontextprotocol/logLevel': 'info' });
    expect(info.map((message) => message['params'])).toEqual([
      { level: 'info', data: 'line 0', logger: 'alpha' },
      { level: 'info', data: 'line 1', logger: 'alpha' },
      { level: 'info', data: 'line 2', logger: 'alpha' },
    ]);
    expect(await logsOf({ 'io.modelcontextprotocol/logLevel': 'error' })).toEqual([]);
    // Without a level, a request hears no log (the revision forbids it).
    expect(await logsOf({})).toEqual([]);
    // A level that is none is refused before anything runs (-32602).
    const { messages } = await modern(
      'tools/call',
      { name: 'alpha_log', arguments: { count: 1 } },
      { meta: { 'io.modelcontextprotocol/logLevel': 'loud' } },
    );
    expect((messages.at(-1)?.['error'] as Json | undefined)?.['code']).toBe(-32602);
  });
});
