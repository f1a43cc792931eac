import { request as httpRequest } from 'node:http';
import type { UpstreamPool } from '@tool-search/mcp';
import { createGatewayServer, type GatewayServer } from '@tool-search/mcp';
import type { GatewayConfig } from '@tool-search/mcp/config';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttpClient, type TestClient, textOf, until } from '../__fixtures__/clients.js';
import {
  ADMIN_TOKEN,
  FILES_TOKEN,
  MEMORY_TOKEN,
  startTestGateway,
  type TestGateway,
} from '../__fixtures__/gateway.js';
import type { GatewayHttpListener } from './http.js';
import { listenGatewayHttp } from './http.js';

const PING = { jsonrpc: '2.0', id: 2, method: 'ping' };

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1.0.0' },
  },
};

describe('createGatewayServer over HTTP', () => {
  let setup: TestGateway;
  let pool: UpstreamPool;
  let gateway: GatewayServer;
  let listener: GatewayHttpListener;
  let config: GatewayConfig;

  beforeAll(async () => {
    setup = await startTestGateway();
    ({ pool, gateway, listener, config } = setup);
  }, 30_000);

  afterAll(async () => {
    await setup?.close();
  });

  const raw = (
    headers: Record<string, string>,
    body: unknown = INITIALIZE,
  ): Promise<{ status: number; text: string }> =>
    new Promise((resolve, reject) => {
      const url = new URL(listener.url);
      const request = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            ...headers,
          },
        },
        (response) => {
          let text = '';
          response.on('data', (chunk) => {
            text += chunk;
          });
          response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
        },
      );
      request.once('error', reject);
      request.end(JSON.stringify(body));
    });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  /** A request with `fetch`, as a browser page would send it; the body read whole. */
  const send = async (
    url: string,
    method: string,
    headers: Record<string, string>,
    body?: unknown,
  ): Promise<{ status: number; headers: Headers; text: string }> => {
    const response = await fetch(url, {
      method,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, headers: response.headers, text: await response.text() };
  };

  it('refuses a foreign Origin with 403 and accepts its own', async () => {
    const foreign = await raw({ ...bearer(ADMIN_TOKEN), origin: 'http://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.text).toContain('origin http://evil.example is not allowed');
    const own = await raw({
      ...bearer(ADMIN_TOKEN),
      origin: `http://127.0.0.1:${listener.port}`,
    });
    expect(own.status).toBe(200);
  });

  it('refuses a foreign Host (DNS rebinding) with 403', async () => {
    const rebound = await raw({ ...bearer(ADMIN_TOKEN), host: `evil.example:${listener.port}` });
    expect(rebound.status).toBe(403);
  });

  it('refuses a request without a valid token with 401', async () => {
    expect((await raw({})).status).toBe(401);
    expect((await raw(bearer('wrong-token-0123456789abcdef'))).status).toBe(401);
    await expect(connectHttpClient(listener.url)).rejects.toThrow();
  });

  it('keeps two concurrent clients with different profiles apart', async () => {
    const [files, memory] = await Promise.all([
      connectHttpClient(listener.url, { token: FILES_TOKEN }),
      connectHttpClient(listener.url, { token: MEMORY_TOKEN }),
    ]);
    try {
      const seen = async (client: TestClient, query: string) => {
        const names = new Set(await client.names());
        if (names.has('tool_search')) {
          const answer = await client.bridge('tool_search', { query, limit: 50 });
          for (const match of answer['matches'] as { name: string }[]) names.add(match.name);
        }
        return names;
      };
      const [filesSees, memorySees] = await Promise.all([
        seen(files, 'entities relations graph observations nodes file directory'),
        seen(memory, 'entities relations graph observations nodes file directory'),
      ]);
      expect(filesSees.has('list_directory')).toBe(true);
      expect(memorySees.has('read_graph')).toBe(true);
      for (const name of ['read_graph', 'create_entities', 'search_nodes', 'get-sum']) {
        expect(filesSees.has(name)).toBe(false);
      }
      for (const name of ['list_directory', 'read_text_file', 'write_file', 'get-sum']) {
        expect(memorySees.has(name)).toBe(false);
      }
      const [fromFiles, fromMemory] = await Promise.all([
        files.call('read_graph', {}),
        memory.call('read_graph', {}),
      ]);
      expect(fromFiles.isError).toBe(true);
      expect(textOf(fromFiles)).toContain("'read_graph' is not available in this session");
      expect(fromMemory.isError).toBeFalsy();
      const smuggled = await files.call('tool_call', { name: 'read_graph', arguments: {} });
      expect(smuggled.isError).toBe(true);

      // A session stays with the token that opened it.
      const hijack = await raw(
        { ...bearer(MEMORY_TOKEN), 'mcp-session-id': files.transport!.sessionId! },
        { jsonrpc: '2.0', id: 9, method: 'tools/list', params: {} },
      );
      expect(hijack.status).toBe(403);
      const sessions = gateway.sessions();
      expect(sessions.map((session) => session.profile)).toEqual(
        expect.arrayContaining(['files', 'memory']),
      );
      // Telemetry is per session: the memory client's searches are not counted for files.
      const before = sessions.find((session) => session.profile === 'files')!.telemetry();
      const searchesBefore = before.searches;
      if ((await memory.names()).includes('tool_search')) {
        await memory.bridge('tool_search', { query: 'graph' });
      }
      expect(before.searches).toBe(searchesBefore);
    } finally {
      await Promise.all([files.close(), memory.close()]);
    }
  });

  it('closes a session idle past idleTimeoutMs: its id gets 404, the cap frees up, a client can initialize again', async () => {
    const idle = createGatewayServer({ pool, config: { ...config, profiles: {} } });
    const http = await listenGatewayHttp(idle, { idleTimeoutMs: 300, maxSessions: 1 });
    const open = (id: string) => idle.sessions().some((session) => session.id === id);
    try {
      // A listening client (its GET stream open) holds the only place.
      const first = await connectHttpClient(http.url);
      const id = first.transport!.sessionId!;
      const refused = await send(http.url, 'POST', {}, INITIALIZE);
      expect(refused.status).toBe(503);
      expect(refused.text).toContain('Too many sessions (1)');
      expect(refused.text).toContain('Sessions close after 300 ms without requests');

      // It goes away without DELETE: the session is left behind, then closed.
      await first.close();
      await until(() => !open(id));
      const expired = await send(http.url, 'POST', { 'mcp-session-id': id }, PING);
      expect(expired.status).toBe(404);
      expect(expired.text).toContain('Session not found: initialize a new session');

      const again = await connectHttpClient(http.url);
      expect(await again.names()).toContain('read_text_file');
      await again.close();
    } finally {
      await idle.close();
    }
  });

  it('keeps a session with an open GET stream, and one whose requests keep coming', async () => {
    const idle = createGatewayServer({ pool, config: { ...config, profiles: {} } });
    // Roomy: a loaded CI machine can stall a pinging client for a good part of a second.
    const idleTimeoutMs = 2500;
    const http = await listenGatewayHttp(idle, { idleTimeoutMs });
    const open = (id: string) => idle.sessions().some((session) => session.id === id);
    const [listening, busy, silent] = await Promise.all([
      connectHttpClient(http.url),
      connectHttpClient(http.url, { listen: false }),
      connectHttpClient(http.url, { listen: false }),
    ]);
    try {
      const started = Date.now();
      // The silent session expires while the busy one pings: its requests reset the clock.
      while (open(silent.transport!.sessionId!) || Date.now() - started < 2 * idleTimeoutMs) {
        await busy.client.ping();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(open(busy.transport!.sessionId!)).toBe(true);
      expect(open(listening.transport!.sessionId!)).toBe(true);
      await expect(silent.names()).rejects.toMatchObject({
        code: 404,
        message: expect.stringContaining('Session not found: initialize a new session'),
      });

      // Once the pings stop, the busy session expires too; the listening one stays.
      await until(() => !open(busy.transport!.sessionId!));
      expect(open(listening.transport!.sessionId!)).toBe(true);
      expect(await listening.names()).toContain('read_text_file');
    } finally {
      await Promise.all([listening.close(), busy.close(), silent.close()]);
      await idle.close();
    }
  });

  it('refuses an idle timeout below 0 and allowed origins browsers never send', async () => {
    const bad = createGatewayServer({ pool });
    try {
      await expect(listenGatewayHttp(bad, { idleTimeoutMs: -1 })).rejects.toMatchObject({
        code: 'invalid_config',
        message: expect.stringContaining('idleTimeoutMs'),
      });
      await expect(listenGatewayHttp(bad, { allowedOrigins: ['*'] })).rejects.toMatchObject({
        code: 'invalid_config',
      });
      await expect(
        listenGatewayHttp(bad, { allowedOrigins: ['http://localhost:6274/'] }),
      ).rejects.toMatchObject({
        code: 'invalid_config',
        message: expect.stringContaining("did you mean 'http://localhost:6274'"),
      });
    } finally {
      await bad.close();
    }
  });

  describe('CORS', () => {
    const INSPECTOR = 'http://localhost:6274';
    let cors: GatewayHttpListener;

    beforeAll(async () => {
      cors = await listenGatewayHttp(gateway, { token: ADMIN_TOKEN, allowedOrigins: [INSPECTOR] });
    });

    afterAll(async () => {
      await cors?.close();
    });

    const preflight = (origin: string) =>
      fetch(cors.url, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type, mcp-protocol-version',
        },
      });

    it('answers the preflight of an allowed origin without credentials', async () => {
      for (const origin of [INSPECTOR, `http://127.0.0.1:${cors.port}`]) {
        const response = await preflight(origin);
        expect(response.status).toBe(204);
        expect(response.headers.get('access-control-allow-origin')).toBe(origin);
        expect(response.headers.get('vary')).toBe('Origin');
        expect(response.headers.get('access-control-allow-methods')).toBe(
          'GET, POST, DELETE, OPTIONS',
        );
        expect(response.headers.get('access-control-allow-headers')).toBe(
          // The 2026-07-28 leg's mirrored headers are allowed too.
          'authorization, content-type, mcp-session-id, mcp-protocol-version, last-event-id, mcp-method, mcp-name',
        );
        expect(response.headers.get('access-control-max-age')).toBe('600');
      }
    });

    it('refuses the preflight of a foreign origin with 403 and no CORS headers', async () => {
      const response = await preflight('http://evil.example');
      expect(response.status).toBe(403);
      for (const name of response.headers.keys()) expect(name).not.toMatch(/^access-control-/);
    });

    it('lets an allowed origin read every answer, errors included', async () => {
      const initialized = await send(
        cors.url,
        'POST',
        { ...bearer(ADMIN_TOKEN), origin: INSPECTOR },
        INITIALIZE,
      );
      expect(initialized.status).toBe(200);
      const id = initialized.headers.get('mcp-session-id');
      expect(id).toBeTruthy();
      expect(initialized.headers.get('access-control-allow-origin')).toBe(INSPECTOR);
      expect(initialized.headers.get('vary')).toBe('Origin');
      expect(initialized.headers.get('access-control-expose-headers')).toBe(
        'mcp-session-id, mcp-protocol-version',
      );

      const unauthorized = await send(cors.url, 'POST', { origin: INSPECTOR }, INITIALIZE);
      expect(unauthorized.status).toBe(401);
      expect(unauthorized.headers.get('access-control-allow-origin')).toBe(INSPECTOR);
      expect(unauthorized.headers.get('access-control-expose-headers')).toContain('mcp-session-id');
      expect(JSON.parse(unauthorized.text).error.message).toContain('Unauthorized');

      const unknown = await send(
        cors.url,
        'POST',
        { ...bearer(ADMIN_TOKEN), origin: INSPECTOR, 'mcp-session-id': 'no-such-session' },
        PING,
      );
      expect(unknown.status).toBe(404);
      expect(unknown.headers.get('access-control-allow-origin')).toBe(INSPECTOR);

      const closed = await send(cors.url, 'DELETE', {
        ...bearer(ADMIN_TOKEN),
        origin: INSPECTOR,
        'mcp-session-id': id!,
        'mcp-protocol-version': '2025-06-18',
      });
      expect(closed.status).toBe(200);
      expect(closed.headers.get('access-control-allow-origin')).toBe(INSPECTOR);
    });

    it('sends no CORS headers to a request without an Origin', async () => {
      const answers = [
        await send(cors.url, 'POST', bearer(ADMIN_TOKEN), INITIALIZE),
        await send(cors.url, 'POST', {}, INITIALIZE),
      ];
      expect(answers.map((answer) => answer.status)).toEqual([200, 401]);
      for (const answer of answers) {
        for (const name of answer.headers.keys()) expect(name).not.toMatch(/^access-control-/);
      }
    });
  });

  it('will not listen on another address without a token', async () => {
    const open = createGatewayServer({ pool });
    await expect(listenGatewayHttp(open, { host: '0.0.0.0' })).rejects.toMatchObject({
      code: 'invalid_config',
      message: expect.stringContaining('without a bearer token'),
    });
    await open.close();
  });
});
