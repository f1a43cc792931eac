// 2026-07-28 end to end: a modern client's resources, prompts and listen stream through the
// gateway's modern leg to a 2026-only upstream over HTTP on loopback.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../../mcp/src/__fixtures__/clients.js';
import {
  type ModernUpstream,
  serveModernUpstream,
} from '../../../mcp/src/__fixtures__/modern-upstream.js';
import { parseGatewayConfig } from '../../../mcp/src/config/parse.js';
import { createGatewayServer, type GatewayServer } from '../../../mcp/src/gateway/server.js';
import { createUpstreamPool, type UpstreamPool } from '../../../mcp/src/upstream/pool.js';
import { listenGatewayHttp } from './http.js';
import type { GatewayHttpListener } from './http-options.js';

const MODERN = '2026-07-28';
const TOKEN = 'modern-token-0123456789abcdef';

type Json = Record<string, unknown>;

const headers = (method: string): Record<string, string> => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  authorization: `Bearer ${TOKEN}`,
  'mcp-protocol-version': MODERN,
  'mcp-method': method,
});

const body = (id: number, method: string, params: Json) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': MODERN,
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/clientInfo': { name: 'e2e', version: '1.0.0' },
      },
    },
  });

describe('a 2026-07-28 client over a 2026-07-28 upstream', () => {
  let upstream: ModernUpstream;
  let pool: UpstreamPool;
  let gateway: GatewayServer;
  let listener: GatewayHttpListener;

  beforeAll(async () => {
    upstream = await serveModernUpstream();
    const config = parseGatewayConfig({
      mcpServers: { up: { url: upstream.url } },
      toolSearch: { enabled: 'off' },
    });
    pool = createUpstreamPool(config, { reconnect: false });
    await pool.start();
    gateway = createGatewayServer({ pool, config });
    listener = await listenGatewayHttp(gateway, { token: TOKEN });
  }, 30_000);

  afterAll(async () => {
    await listener?.close();
    await gateway?.close();
    await pool?.close();
    await upstream?.close();
  });

  const ask = async (id: number, method: string, params: Json, name?: string) => {
    const response = await fetch(listener.url, {
      method: 'POST',
      headers: { ...headers(method), ...(name === undefined ? {} : { 'mcp-name': name }) },
      body: body(id, method, params),
    });
    return (await response.json()) as { result?: Json; error?: Json };
  };

  it('reads its resource and gets its prompt', async () => {
    const read = await ask(1, 'resources/read', { uri: 'modern://status' }, 'modern://status');
    expect(read.result?.['contents']).toEqual([{ uri: 'modern://status', text: 'all good' }]);
    const prompt = await ask(2, 'prompts/get', { name: 'greet' }, 'greet');
    expect(prompt.result?.['messages']).toEqual([
      { role: 'user', content: { type: 'text', text: 'prompt greet' } },
    ]);
  });

  it('pushes the upstream resource update to a listen stream that subscribed to it', async () => {
    const controller = new AbortController();
    const response = await fetch(listener.url, {
      method: 'POST',
      headers: headers('subscriptions/listen'),
      body: body(3, 'subscriptions/listen', {
        notifications: { resourceSubscriptions: ['modern://status'] },
      }),
      signal: controller.signal,
    });
    const heard: string[] = [];
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    void (async () => {
      for (;;) {
        const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
        if (done) return;
        heard.push(decoder.decode(value, { stream: true }));
      }
    })();
    try {
      await until(() => heard.join('').includes('notifications/subscriptions/acknowledged'));
      expect(heard.join('')).toContain('modern://status');
      upstream.updated('modern://status');
      await until(() => heard.join('').includes('notifications/resources/updated'));
    } finally {
      controller.abort();
    }
  });
});
