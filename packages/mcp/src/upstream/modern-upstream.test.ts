import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { textOf, until } from '../__fixtures__/clients.js';
import {
  type ModernUpstream,
  modernInProcess,
  serveModernUpstream,
} from '../__fixtures__/modern-upstream.js';
import { connectUpstream } from './connect.js';
import { createEraCache, eraKey } from './era.js';
import { createUpstreamPool, UPSTREAM_ERROR_META_KEY, type UpstreamPool } from './pool.js';

const codeOf = (result: CallToolResult) => result._meta?.[UPSTREAM_ERROR_META_KEY];

const open: { pools: UpstreamPool[]; servers: ModernUpstream[] } = { pools: [], servers: [] };
afterEach(async () => {
  await Promise.all(open.pools.splice(0).map((pool) => pool.close()));
  await Promise.all(open.servers.splice(0).map((server) => server.close()));
});

async function modern(options: Parameters<typeof serveModernUpstream>[0] = {}) {
  const server = await serveModernUpstream(options);
  open.servers.push(server);
  return server;
}

function poolOf(mcpServers: Parameters<typeof createUpstreamPool>[0]['mcpServers'], options = {}) {
  const pool = createUpstreamPool({ mcpServers }, { connectTimeoutMs: 20_000, ...options });
  open.pools.push(pool);
  return pool;
}

// A v2 server with `legacy: 'reject'` refuses `initialize` (-32022): the 2025-only client
// lost it. The pool's client probes with server/discover and speaks 2026-07-28 to it.
describe('an upstream that refuses the 2025 handshake', () => {
  it('is listed, and its tools are called, in the 2026-07-28 era', async () => {
    const server = await modern();
    const pool = poolOf({ modern: { url: server.url } });
    const [status] = await pool.start();
    expect(status).toMatchObject({ state: 'ready', transport: 'streamable-http', era: 'modern' });
    expect(pool.tools().map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['echo', 'regional', 'confirm']),
    );
    const result = await pool.callTool('echo', { message: 'hi' });
    expect(textOf(result)).toBe('modern echo: hi');
    // No request of the 2025 era reached it.
    expect(server.requests.map((request) => request.method)).not.toContain('initialize');
    const call = server.requests.find((request) => request.method === 'tools/call');
    expect(call?.headers['mcp-name']).toBe('echo');
    expect(call?.headers['mcp-protocol-version']).toBe('2026-07-28');
  });

  it('mirrors the arguments the tool declares with x-mcp-header into Mcp-Param-* headers', async () => {
    const server = await modern();
    const pool = poolOf({ modern: { url: server.url } });
    await pool.start();
    const result = await pool.callTool('regional', { region: 'eu-west', item: 'disk' });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe('disk in eu-west');
    const call = server.requests.filter((request) => request.method === 'tools/call').at(-1);
    expect(call?.headers['mcp-param-region']).toBe('eu-west');
    expect(call?.headers['mcp-name']).toBe('regional');
  });

  it('is reached as an in-process entry too', async () => {
    const local = modernInProcess();
    const pool = poolOf({ local: local.entry });
    const [status] = await pool.start();
    expect(status).toMatchObject({ state: 'ready', transport: 'in-process', era: 'modern' });
    expect(textOf(await pool.callTool('echo', { message: 'in' }))).toBe('modern echo: in');
    await pool.close();
    await local.close();
  });

  it('probes once per origin: a second connect adopts the cached era and sends no probe', async () => {
    const server = await modern();
    const eras = createEraCache();
    const key = eraKey('a', { url: server.url });
    const probes = () => server.requests.filter((r) => r.method === 'server/discover').length;
    const connect = () =>
      connectUpstream(
        { url: server.url },
        {
          clientInfo: { name: 'test', version: '0' },
          timeoutMs: 10_000,
          signal: new AbortController().signal,
          prepare: () => {},
          eras: { cache: eras, key },
        },
      );
    const first = await connect();
    expect([first.era, first.eraCached, probes()]).toEqual(['modern', false, 1]);
    expect(eras.get(key)?.kind).toBe('modern');
    await first.client.close();
    const second = await connect();
    expect([second.era, second.eraCached, probes()]).toEqual(['modern', true, 1]);
    expect(
      textOf(
        (await second.client.callTool({
          name: 'echo',
          arguments: { message: 'x' },
        })) as CallToolResult,
      ),
    ).toBe('modern echo: x');
    await second.client.close();
    // Another credential is another origin: its own probe.
    expect(eraKey('a', { url: server.url, headers: { Authorization: 'Bearer b' } })).not.toBe(key);
  });
});

describe('the era cache', () => {
  it('forgets a legacy verdict after its horizon, and keeps a modern one', () => {
    let now = 0;
    const eras = createEraCache({ legacyHorizonMs: 1000, now: () => now });
    eras.set('old', { kind: 'legacy' });
    eras.set('new', {
      kind: 'modern',
      discover: { supportedVersions: ['2026-07-28'], capabilities: {} } as never,
    });
    now = 999;
    expect(eras.get('old')?.kind).toBe('legacy');
    now = 1000;
    expect(eras.get('old')).toBeUndefined();
    expect(eras.get('new')?.kind).toBe('modern');
  });
});

describe("an upstream's input_required", () => {
  const ask = { clientCapabilities: { elicitation: {} } };

  it('ends the call with a clear error result, naming the server and the question, without a handler', async () => {
    const server = await modern();
    const pool = poolOf({ modern: { url: server.url } }, ask);
    await pool.start();
    const result = await pool.callTool('confirm', { action: 'deploy' });
    expect(codeOf(result)).toBe('upstream_failed');
    expect(textOf(result)).toContain("Server 'modern' needs input to run 'confirm'");
    expect(textOf(result)).toContain('elicitation/create "Run deploy?"');
  });

  it("retries with the handler's answers and the upstream's requestState", async () => {
    const server = await modern();
    const pool = poolOf({ modern: { url: server.url } }, ask);
    await pool.start();
    const seen: unknown[] = [];
    const result = await pool.callTool(
      'confirm',
      { action: 'deploy' },
      {
        onInputRequired: async (requests, context) => {
          seen.push({ keys: Object.keys(requests), ...context, signal: undefined });
          return { ok: { action: 'accept', content: { ok: true } } };
        },
      },
    );
    expect(textOf(result)).toBe('done: deploy');
    expect(seen).toEqual([
      expect.objectContaining({
        keys: ['ok'],
        server: 'modern',
        tool: 'confirm',
        upstreamName: 'confirm',
        round: 1,
        requestState: 'state-of-deploy',
        arguments: { action: 'deploy' },
      }),
    ]);
  });

  it('stops an upstream that asks for input forever after the round limit', async () => {
    const server = await modern();
    const pool = poolOf({ modern: { url: server.url } }, ask);
    await pool.start();
    let rounds = 0;
    const result = await pool.callTool(
      'forever',
      {},
      {
        maxInputRounds: 3,
        onInputRequired: async () => {
          rounds += 1;
          return { again: { action: 'accept', content: { ok: true } } };
        },
      },
    );
    expect(codeOf(result)).toBe('upstream_failed');
    expect(textOf(result)).toContain('kept asking for input');
    expect(rounds).toBe(3);
  });

  it('retries a requestState-only answer without a handler, up to the limit', async () => {
    const server = await modern();
    const pool = poolOf({ modern: { url: server.url } }, ask);
    await pool.start();
    const result = await pool.callTool('busy', {}, { maxInputRounds: 2 });
    expect(codeOf(result)).toBe('upstream_failed');
    expect(textOf(result)).toContain(
      "kept asking for input to run 'busy' (2 rounds answered; last it asked for nothing but to be called again",
    );
    expect(server.requests.filter((request) => request.method === 'tools/call')).toHaveLength(3);
  });

  it('turns a handler that throws into an error result that says why', async () => {
    const server = await modern();
    const pool = poolOf({ modern: { url: server.url } }, ask);
    await pool.start();
    const result = await pool.callTool(
      'confirm',
      { action: 'x' },
      {
        onInputRequired: async () => {
          throw new Error('nobody is there');
        },
      },
    );
    expect(codeOf(result)).toBe('upstream_failed');
    expect(textOf(result)).toContain('nobody is there');
  });
});

describe('cancellation of a 2026-07-28 call over HTTP', () => {
  it('reaches the upstream when the caller aborts', async () => {
    const server = await modern();
    const pool = poolOf({ modern: { url: server.url } });
    await pool.start();
    const controller = new AbortController();
    const call = pool.callTool('wait', { label: 'one' }, { signal: controller.signal });
    await until(() => server.requests.some((request) => request.method === 'tools/call'));
    controller.abort();
    expect(codeOf(await call)).toBe('aborted');
    await until(() => server.cancelled.includes('one'));
  });
});

describe('a fresh catalog from a 2026-07-28 upstream', () => {
  const lists = (server: ModernUpstream) =>
    server.requests.filter((request) => request.method === 'tools/list').length;

  it.each([
    ['a 2026-only upstream', 'reject'],
    ['an upstream of both eras', 'stateless'],
  ] as const)('follows tools/list_changed on subscriptions/listen from %s', async (_, legacy) => {
    const server = await modern({ legacy });
    const pool = poolOf({ up: { url: server.url } });
    const [status] = await pool.start();
    expect(status?.era).toBe('modern');
    await until(() => server.requests.some((request) => request.method === 'subscriptions/listen'));
    server.extra.push('added_later');
    server.notify();
    await until(() => pool.tools().some((tool) => tool.name === 'added_later'));
  });

  it("re-lists when the list's ttlMs has passed, and reports a private list", async () => {
    const server = await modern({ listHint: { ttlMs: 1000, cacheScope: 'private' } });
    const pool = poolOf({ up: { url: server.url } });
    const [status] = await pool.start();
    expect(status?.listScope).toBe('private');
    // Changed without a notification: only the expiry of the list brings it in.
    server.extra.push('after_ttl');
    await until(() => pool.tools().some((tool) => tool.name === 'after_ttl'), 10_000);
    expect(lists(server)).toBeGreaterThanOrEqual(2);
  });

  it('re-lists a bounded number of times under a flood of notifications', async () => {
    const server = await modern();
    const pool = poolOf({ up: { url: server.url } });
    await pool.start();
    await until(() => server.requests.some((request) => request.method === 'subscriptions/listen'));
    const before = lists(server);
    server.extra.push('flooded');
    for (let i = 0; i < 2000; i += 1) server.notify();
    await until(() => pool.tools().some((tool) => tool.name === 'flooded'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(lists(server) - before).toBeLessThanOrEqual(3);
  });

  it("follows the prompts' list changes of the listen stream: the feature hub re-lists them", async () => {
    const server = await modern();
    const pool = poolOf({ up: { url: server.url } });
    await pool.start();
    const prompts = () => pool.features?.get('up')?.prompts.map((prompt) => prompt['name']);
    await until(() => prompts()?.includes('greet'));
    await until(() => server.requests.some((request) => request.method === 'subscriptions/listen'));
    server.prompts.push('agenda');
    server.notifyPrompts();
    await until(() => prompts()?.includes('agenda'));
  });

  it('subscribes a URI of a 2026-07-28 server by a listen stream, and hears its updates', async () => {
    const server = await modern();
    const pool = poolOf({ up: { url: server.url } });
    await pool.start();
    const hub = pool.features!;
    const updates: string[] = [];
    hub.onEvent((event) => {
      if (event.kind === 'resource_updated') updates.push(`${event.server} ${event.uri}`);
    });
    await hub.request('up', 'resources/subscribe', { uri: 'modern://status' });
    const listen = server.requests.filter((request) => request.method === 'subscriptions/listen');
    expect(listen.length).toBeGreaterThan(0);
    server.updated('modern://status');
    await until(() => updates.includes('up modern://status'));
    await hub.request('up', 'resources/unsubscribe', { uri: 'modern://status' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    server.updated('modern://status');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(updates).toEqual(['up modern://status']);
  });
});
