import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttpClient } from '../__fixtures__/clients.js';
import {
  ADMIN_TOKEN,
  FILES_TOKEN,
  MEMORY_TOKEN,
  startTestGateway,
  type TestGateway,
} from '../__fixtures__/gateway.js';
import { listenGatewayHttp } from './http.js';

const MODERN = '2026-07-28';

/** A v2 client pinned to 2026-07-28, with a bearer token. */
async function connectModern(url: string, token: string): Promise<Client> {
  const client = new Client(
    { name: 'modern-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: MODERN } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

function textOf(result: { content?: unknown }): string {
  const parts = (result.content ?? []) as { type: string; text?: string }[];
  return parts.map((part) => part.text ?? '').join('');
}

function envelope(extra: Record<string, unknown> = {}) {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
    ...extra,
  };
}

describe('the modern leg of listenGatewayHttp', () => {
  let setup: TestGateway;

  beforeAll(async () => {
    setup = await startTestGateway();
  }, 30_000);

  afterAll(async () => {
    await setup?.close();
  });

  const post = async (
    body: unknown,
    headers: Record<string, string> = {},
    token = ADMIN_TOKEN,
  ): Promise<{ status: number; json: Record<string, unknown> }> => {
    const response = await fetch(setup.listener.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
        ...headers,
      },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    const data = text.startsWith('{')
      ? text
      : (text
          .split('\n')
          .find((line) => line.startsWith('data: '))
          ?.slice(6) ?? '{}');
    return { status: response.status, json: JSON.parse(data) as Record<string, unknown> };
  };

  it('connects a client pinned to 2026-07-28 and lists the bridge with the pinned tools', async () => {
    const client = await connectModern(setup.listener.url, ADMIN_TOKEN);
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
      const { tools } = await client.listTools(undefined, { cacheMode: 'bypass' });
      const names = tools.map((tool) => tool.name);
      expect(names.slice(-3)).toEqual(['tool_search', 'tool_describe', 'tool_call']);
      expect(names).toContain('read_text_file');
      // Deterministic: by name before the bridge tools.
      const rest = names.slice(0, -3);
      expect(rest).toEqual([...rest].sort());
    } finally {
      await client.close();
    }
  });

  it('searches and calls by the real name without a session', async () => {
    const client = await connectModern(setup.listener.url, ADMIN_TOKEN);
    try {
      const search = await client.callTool({
        name: 'tool_search',
        arguments: { query: 'echo a message back' },
      });
      expect(textOf(search)).toContain('echo');
      const call = await client.callTool({
        name: 'tool_call',
        arguments: { name: 'everything_echo', arguments: { message: 'hello modern' } },
      });
      expect(textOf(call)).toContain('hello modern');
      const audited = setup.activity.find(
        (entry) => entry.name === 'everything_echo' && entry.sessionId === 'stateless:default',
      );
      expect(audited?.via).toBe('bridge');
    } finally {
      await client.close();
    }
  });

  it('lists by the authorization: a profile sees its own scope, marked private', async () => {
    const files = await post(
      {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/list',
        params: { _meta: envelope() },
      },
      { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' },
      FILES_TOKEN,
    );
    const memory = await post(
      {
        jsonrpc: '2.0',
        id: 8,
        method: 'tools/list',
        params: { _meta: envelope() },
      },
      { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' },
      MEMORY_TOKEN,
    );
    const result = files.json['result'] as Record<string, unknown>;
    expect(files.json['id']).toBe(7);
    expect(result['resultType']).toBe('complete');
    expect(result['cacheScope']).toBe('private');
    expect(typeof result['ttlMs']).toBe('number');
    const fileNames = (result['tools'] as { name: string }[]).map((tool) => tool.name);
    const memoryNames = (
      (memory.json['result'] as Record<string, unknown>)['tools'] as { name: string }[]
    ).map((tool) => tool.name);
    expect(fileNames).toContain('read_text_file');
    expect(memoryNames).not.toContain('read_text_file');
  });

  it('refuses a call outside the credential scope as unknown', async () => {
    const { json } = await post(
      {
        jsonrpc: '2.0',
        id: 9,
        method: 'tools/call',
        params: { name: 'read_text_file', arguments: { path: '/etc/hosts' }, _meta: envelope() },
      },
      { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'read_text_file' },
      MEMORY_TOKEN,
    );
    const result = json['result'] as { isError?: boolean; content: { text: string }[] };
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toContain('not available in this session');
  });

  it('answers a header that disagrees with the body with -32020, keeping the id', async () => {
    const { status, json } = await post(
      { jsonrpc: '2.0', id: 11, method: 'tools/list', params: { _meta: envelope() } },
      { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call' },
    );
    expect(status).toBe(400);
    expect(json['id']).toBe(11);
    expect((json['error'] as { code: number }).code).toBe(-32020);
  });

  it('still needs the bearer token on the modern leg', async () => {
    const { status } = await post(
      { jsonrpc: '2.0', id: 12, method: 'tools/list', params: { _meta: envelope() } },
      { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' },
      'wrong-token-0123456789abcdef',
    );
    expect(status).toBe(401);
  });

  it('keeps serving a 2025 client on the same URL', async () => {
    const legacy = await connectHttpClient(setup.listener.url, { token: ADMIN_TOKEN });
    try {
      expect(await legacy.names()).toContain('tool_search');
    } finally {
      await legacy.close();
    }
  });

  it('acknowledges a listen stream and tells it when the tools change', async () => {
    const client = await connectModern(setup.listener.url, ADMIN_TOKEN);
    try {
      let changed = 0;
      client.setNotificationHandler('notifications/tools/list_changed', async () => {
        changed += 1;
      });
      const subscription = await client.listen({ toolsListChanged: true });
      expect(subscription.honoredFilter).toEqual({ toolsListChanged: true });
      await setup.admin.call('tool_call', {
        name: 'add_tool',
        arguments: { name: 'modern_added' },
      });
      await expect.poll(() => changed, { timeout: 10_000 }).toBeGreaterThan(0);
      await subscription.close();
    } finally {
      await client.close();
    }
  });

  it('cancels the upstream call when the client closes the stream', async () => {
    const cancelledBefore = async () => {
      const { json } = await post(
        {
          jsonrpc: '2.0',
          id: 20,
          method: 'tools/call',
          params: { name: 'tool_call', arguments: { name: 'cancelled_count' }, _meta: envelope() },
        },
        { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'tool_call' },
      );
      return Number(textOf(json['result'] as { content?: unknown }));
    };
    const before = await cancelledBefore();
    const aborted = new AbortController();
    const pending = fetch(setup.listener.url, {
      method: 'POST',
      signal: aborted.signal,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${ADMIN_TOKEN}`,
        'mcp-protocol-version': MODERN,
        'mcp-method': 'tools/call',
        'mcp-name': 'tool_call',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 21,
        method: 'tools/call',
        params: { name: 'tool_call', arguments: { name: 'hang' }, _meta: envelope() },
      }),
    }).then(
      (response) => response.text(),
      () => 'aborted',
    );
    await expect
      .poll(() => setup.pool.status().some((server) => server.name === 'hang'), { timeout: 5000 })
      .toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    aborted.abort();
    await pending;
    await expect.poll(cancelledBefore, { timeout: 10_000 }).toBe(before + 1);
  });

  it('bounds the listen streams one credential may hold open', async () => {
    const limited = await listenGatewayHttp(setup.gateway, {
      token: ADMIN_TOKEN,
      maxSessions: 4,
      maxSessionsPerPrincipal: 2,
    });
    const streams: AbortController[] = [];
    const open = async () => {
      const controller = new AbortController();
      streams.push(controller);
      const response = await fetch(limited.url, {
        method: 'POST',
        signal: controller.signal,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${ADMIN_TOKEN}`,
          'mcp-protocol-version': MODERN,
          'mcp-method': 'subscriptions/listen',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: streams.length,
          method: 'subscriptions/listen',
          params: { notifications: { toolsListChanged: true }, _meta: envelope() },
        }),
      });
      return response;
    };
    try {
      const first = await open();
      const second = await open();
      expect([first.status, second.status]).toEqual([200, 200]);
      expect(first.headers.get('content-type')).toContain('text/event-stream');
      const third = await open();
      expect(third.status).toBe(503);
      const refusal = (await third.json()) as { id: unknown; error: { message: string } };
      expect(refusal.id).toBe(3);
      expect(refusal.error.message).toMatch(/Too many listen streams/);
      // A closed stream gives its place back.
      streams[0]!.abort();
      await expect.poll(async () => (await open()).status, { timeout: 5000 }).toBe(200);
    } finally {
      for (const stream of streams) stream.abort();
      await limited.close();
    }
  });

  it("serves one era only with `eras`: 'modern' refuses a 2025 initialize, 'legacy' a modern request", async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 31,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'old', version: '1.0.0' },
      },
    };
    const listOf = { jsonrpc: '2.0', id: 32, method: 'tools/list', params: { _meta: envelope() } };
    const modernOnly = await listenGatewayHttp(setup.gateway, {
      token: ADMIN_TOKEN,
      eras: 'modern',
    });
    const legacyOnly = await listenGatewayHttp(setup.gateway, {
      token: ADMIN_TOKEN,
      eras: 'legacy',
    });
    const send = async (url: string, body: unknown, headers: Record<string, string> = {}) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${ADMIN_TOKEN}`,
          ...headers,
        },
        body: JSON.stringify(body),
      });
      return { status: response.status, json: (await response.json()) as Record<string, unknown> };
    };
    try {
      const refused = await send(modernOnly.url, initialize);
      expect(refused.status).toBe(400);
      expect((refused.json['error'] as { code: number }).code).toBe(-32022);
      expect(refused.json['id']).toBe(31);
      const modernHeaders = { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' };
      expect((await send(modernOnly.url, listOf, modernHeaders)).status).toBe(200);
      const old = await send(legacyOnly.url, listOf, modernHeaders);
      expect(old.status).toBe(400);
      expect(String((old.json['error'] as { message: string }).message)).toMatch(/no session/);
    } finally {
      await modernOnly.close();
      await legacyOnly.close();
    }
  });

  it('refuses an unknown era or a bad ttl before it listens', async () => {
    await expect(listenGatewayHttp(setup.gateway, { eras: 'future' as 'both' })).rejects.toThrow(
      /eras must be/,
    );
    await expect(listenGatewayHttp(setup.gateway, { modernTtlMs: -1 })).rejects.toThrow(
      /modernTtlMs must be/,
    );
  });

  it("writes a credential's stateless calls to the audit trail under its profile", async () => {
    await post(
      {
        jsonrpc: '2.0',
        id: 41,
        method: 'tools/call',
        params: {
          name: 'tool_call',
          arguments: { name: 'list_allowed_directories' },
          _meta: envelope(),
        },
      },
      { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'tool_call' },
      FILES_TOKEN,
    );
    await expect
      .poll(
        async () =>
          (await setup.gateway.store.readAudit({ count: 1000 })).find(
            (entry) =>
              entry.record?.sessionId === 'stateless:profile:files' &&
              entry.record.tool === 'list_allowed_directories',
          )?.record?.profile,
        { timeout: 5000 },
      )
      .toBe('files');
  });
});
