import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../../mcp/src/__fixtures__/clients.js';
import {
  type FeatureGateway,
  startFeatureGateway,
} from '../../../mcp/src/__fixtures__/feature-gateway.js';
import { MAX_LOGS_PER_WINDOW } from '../../../mcp/src/upstream/features/log-limiter.js';
import { listenGatewayHttp } from './http.js';
import type { GatewayHttpListener } from './http-options.js';

const MODERN = '2026-07-28';
const ADMIN = 'admin-token-0123456789abcdef';
const ALPHA = 'alpha-token-0123456789abcdef';
/** What one listen stream may hold upstream (the gateway's per-session cap). */
const MAX_SUBSCRIPTIONS = 256;

type Json = Record<string, unknown>;

const envelope = (extra: Json = {}): Json => ({
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
  ...extra,
});

/** An open listen stream: the messages heard so far, and its close. */
interface Stream {
  heard: Json[];
  close(): void;
}

/** Opens a `subscriptions/listen` stream and reads its SSE messages as they come. */
async function listen(url: string, token: string, notifications: Json): Promise<Stream> {
  const controller = new AbortController();
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
      'mcp-protocol-version': MODERN,
      'mcp-method': 'subscriptions/listen',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'subscriptions/listen',
      params: { notifications, _meta: envelope() },
    }),
    signal: controller.signal,
  });
  const heard: Json[] = [];
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) return;
      buffered += decoder.decode(value, { stream: true });
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        if (line.startsWith('data: ')) heard.push(JSON.parse(line.slice(6)) as Json);
      }
    }
  })();
  return { heard, close: () => controller.abort() };
}

const acknowledged = async (stream: Stream) =>
  until(() =>
    stream.heard.find(
      (message) => message['method'] === 'notifications/subscriptions/acknowledged',
    ),
  );

describe('listen streams and hostile input on the 2026-07-28 leg', () => {
  let setup: FeatureGateway;
  let listener: GatewayHttpListener;

  beforeAll(async () => {
    setup = await startFeatureGateway({
      injected: true,
      config: { profiles: { alphaOnly: { enabledToolsets: ['mcp-alpha'], token: ALPHA } } },
    });
    listener = await listenGatewayHttp(setup.gateway, { token: ADMIN });
  }, 30_000);

  afterAll(async () => {
    await listener?.close();
    await setup?.close();
  });

  it('pushes an update of a URI the stream named, in scope, and unsubscribes upstream on close', async () => {
    const stream = await listen(listener.url, ALPHA, {
      resourceSubscriptions: ['alpha://own', 'beta://own'],
      resourcesListChanged: true,
      promptsListChanged: true,
    });
    const ack = await acknowledged(stream);
    // beta://own is out of the credential's scope: left out as one the server cannot honour
    // (in this scope alpha is the only server of resources, so alpha is asked for it).
    expect((ack['params'] as Json)['notifications']).toMatchObject({
      resourceSubscriptions: expect.arrayContaining(['alpha://own']),
    });
    expect(setup.alpha.subscribed).toContain('alpha://own');
    expect(setup.beta.subscribed).not.toContain('beta://own');
    await setup.alpha.server().server.sendResourceUpdated({ uri: 'alpha://own' });
    const updated = await until(() =>
      stream.heard.find((message) => message['method'] === 'notifications/resources/updated'),
    );
    expect((updated['params'] as Json)['uri']).toBe('alpha://own');
    // Beta is out of scope: neither its update nor its list change reaches the stream.
    await setup.beta.server().server.sendResourceUpdated({ uri: 'beta://own' });
    setup.beta.server().sendPromptListChanged();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await setup.alpha.server().server.sendResourceListChanged();
    await until(() =>
      stream.heard.some((message) => message['method'] === 'notifications/resources/list_changed'),
    );
    const updates = stream.heard.filter(
      (message) => message['method'] === 'notifications/resources/updated',
    );
    expect(updates.map((message) => (message['params'] as Json)['uri'])).toEqual(['alpha://own']);
    const promptChanges = () =>
      stream.heard.filter((message) => message['method'] === 'notifications/prompts/list_changed');
    expect(promptChanges()).toEqual([]);
    setup.alpha.server().sendPromptListChanged();
    await until(() => promptChanges().length === 1);
    stream.close();
    await until(() => setup.alpha.unsubscribed.includes('alpha://own'));
  });

  it('holds at most its cap of upstream subscriptions for a stream that names thousands of URIs', async () => {
    const before = setup.alpha.subscribed.length;
    const uris = Array.from({ length: 2_000 }, (_, index) => `alpha://items/${index}`);
    const stream = await listen(listener.url, ALPHA, { resourceSubscriptions: uris });
    const ack = await acknowledged(stream);
    const honoured = (ack['params'] as Json)['notifications'] as Json;
    expect((honoured['resourceSubscriptions'] as string[]).length).toBe(MAX_SUBSCRIPTIONS);
    expect(setup.alpha.subscribed.length - before).toBe(MAX_SUBSCRIPTIONS);
    stream.close();
    await until(() => setup.alpha.unsubscribed.length >= MAX_SUBSCRIPTIONS);
  });

  it('lets through at most the log limit of a flood during a call', async () => {
    const response = await fetch(listener.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${ADMIN}`,
        'mcp-protocol-version': MODERN,
        'mcp-method': 'tools/call',
        'mcp-name': 'alpha_log',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: {
          name: 'alpha_log',
          arguments: { count: MAX_LOGS_PER_WINDOW * 3 },
          _meta: envelope({ 'io.modelcontextprotocol/logLevel': 'debug' }),
        },
      }),
    });
    const text = await response.text();
    const logs = text
      .split('\n')
      .filter((line) => line.startsWith('data: ') && line.includes('notifications/message'));
    expect(logs.length).toBeLessThanOrEqual(MAX_LOGS_PER_WINDOW);
    expect(logs.length).toBeGreaterThan(0);
  });

  it('lists a prompt whose text speaks to the model as the 2025 leg does, and reports it', async () => {
    const response = await fetch(listener.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${ADMIN}`,
        'mcp-protocol-version': MODERN,
        'mcp-method': 'prompts/list',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'prompts/list',
        params: { _meta: envelope() },
      }),
    });
    const listed = ((await response.json()) as { result: { prompts: Json[] } }).result.prompts;
    const hub = setup.pool.features!;
    const screened = hub.get('beta')!.prompts.find((prompt) => prompt['name'] === 'helpful');
    // What the model is shown is the screened text the 2025 leg shows, never more.
    expect(listed.find((prompt) => prompt['name'] === 'helpful')).toEqual(screened);
    expect(hub.get('beta')!.findings.map((finding) => finding.name)).toEqual(['helpful']);
  });
});
