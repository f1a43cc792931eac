import { connect, type Socket } from 'node:net';
import { CallToolResultSchema, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import {
  createGatewayServer,
  createUpstreamPool,
  type GatewayServer,
  type UpstreamPool,
} from '@tool-search/mcp';
import { type GatewayConfig, parseGatewayConfig } from '@tool-search/mcp/config';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hangInProcess } from '../../../mcp/src/__fixtures__/in-process.js';
import { connectHttpClient, type TestClient, until } from '../__fixtures__/clients.js';
import type { GatewayHttpListener, GatewayHttpOptions } from './http.js';
import { listenGatewayHttp } from './http.js';

const ALICE = 'alice-token-0123456789abcdef';
const BOB = 'bob-token-0123456789abcdef';

/** A raw TCP connection to a listener: what it received, and whether the server closed it. */
interface RawSocket {
  socket: Socket;
  received: () => string;
  closed: Promise<void>;
  isClosed: () => boolean;
}

function openSocket(listener: GatewayHttpListener): Promise<RawSocket> {
  return new Promise((resolve, reject) => {
    let received = '';
    let closed = false;
    const socket = connect(listener.port, '127.0.0.1');
    const closedPromise = new Promise<void>((done) => {
      socket.once('close', () => {
        closed = true;
        done();
      });
    });
    socket.on('data', (chunk) => {
      received += chunk.toString();
    });
    socket.on('error', () => {});
    socket.once('connect', () =>
      resolve({
        socket,
        received: () => received,
        closed: closedPromise,
        isClosed: () => closed,
      }),
    );
    socket.once('error', reject);
  });
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1.0.0' },
  },
});

function postHead(
  listener: GatewayHttpListener,
  token: string,
  length: number,
  extra = '',
): string {
  return (
    `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${listener.port}\r\n` +
    `Authorization: Bearer ${token}\r\nContent-Type: application/json\r\n` +
    `Accept: application/json, text/event-stream\r\n${extra}Content-Length: ${length}\r\n\r\n`
  );
}

describe('listenHttp limits', () => {
  let pool: UpstreamPool;
  let config: GatewayConfig;
  const gateways: GatewayServer[] = [];

  const listen = async (options: GatewayHttpOptions = {}) => {
    const gateway = createGatewayServer({ pool, config });
    gateways.push(gateway);
    return { gateway, listener: await listenGatewayHttp(gateway, options) };
  };

  beforeAll(async () => {
    config = parseGatewayConfig({
      mcpServers: { hang: hangInProcess() },
      profiles: {
        alice: { token: ALICE },
        bob: { token: BOB },
      },
    });
    pool = createUpstreamPool(config);
    await pool.start();
  }, 30_000);

  afterAll(async () => {
    await Promise.allSettled(gateways.map((gateway) => gateway.close()));
    await pool?.close();
  });

  describe('sessions per token', () => {
    it('one token opening 150 sessions (closed without DELETE) does not lock out another token', async () => {
      const { gateway, listener } = await listen({ maxSessions: 100 });
      const first = await connectHttpClient(listener.url, { token: ALICE });
      const firstId = first.transport!.sessionId!;
      await first.close();
      for (let round = 1; round < 150; round += 1) {
        // An ordinary SDK client that reconnects: it never sends DELETE.
        const client = await connectHttpClient(listener.url, { token: ALICE });
        await client.close();
      }
      const sessions = gateway.sessions();
      expect(sessions.length).toBeLessThanOrEqual(100);

      const bob = await connectHttpClient(listener.url, { token: BOB });
      expect(await bob.names()).toContain('hang');
      // Alice's oldest idle session made room; its id is gone for good.
      const stale = await fetch(listener.url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${ALICE}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': firstId,
          'mcp-protocol-version': '2025-06-18',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
      });
      expect(stale.status).toBe(404);
      await stale.text();
      const alice = await connectHttpClient(listener.url, { token: ALICE });
      expect(await alice.names()).toContain('hang');
      await Promise.all([bob.close(), alice.close()]);
    }, 120_000);

    it('evicts the oldest idle session of a token at its cap, and refuses 503 when all of them are busy', async () => {
      const { gateway, listener } = await listen({ maxSessionsPerPrincipal: 3 });
      const open = (id: string) => gateway.sessions().some((session) => session.id === id);
      // Listening clients hold a GET stream open: busy, never evicted.
      const busy: TestClient[] = [];
      for (let index = 0; index < 2; index += 1) {
        busy.push(await connectHttpClient(listener.url, { token: ALICE }));
      }
      const idle = await connectHttpClient(listener.url, { token: ALICE, listen: false });
      const idleId = idle.transport!.sessionId!;
      // Wait until the GET streams are open (they are opened after initialization).
      await until(() => gateway.sessions().length === 3);
      await new Promise((resolve) => setTimeout(resolve, 200));

      const fourth = await connectHttpClient(listener.url, { token: ALICE });
      expect(open(idleId)).toBe(false);
      await expect(idle.names()).rejects.toMatchObject({ code: 404 });
      await until(() => gateway.sessions().length === 3);
      await new Promise((resolve) => setTimeout(resolve, 200));

      const refused = await fetch(listener.url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${ALICE}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: INITIALIZE,
      });
      expect(refused.status).toBe(503);
      const message = (await refused.json()) as { error: { message: string } };
      expect(message.error.message).toContain("profile 'alice'");
      expect(message.error.message).toContain('3 sessions open');
      expect(message.error.message).toContain('busy');

      // Another token is not affected.
      const bob = await connectHttpClient(listener.url, { token: BOB });
      expect(await bob.names()).toContain('hang');
      await Promise.all([...busy, fourth, idle, bob].map((client) => client.close()));
    }, 60_000);

    it('at the global cap, makes room from the token holding the most sessions, never from a smaller one', async () => {
      const { gateway, listener } = await listen({ maxSessions: 4, maxSessionsPerPrincipal: 4 });
      const alice: TestClient[] = [];
      for (let index = 0; index < 3; index += 1) {
        alice.push(await connectHttpClient(listener.url, { token: ALICE, listen: false }));
      }
      const bob = await connectHttpClient(listener.url, { token: BOB, listen: false });
      // Full: Bob (1 session) takes the place of Alice's oldest idle one (3 sessions).
      const bobAgain = await connectHttpClient(listener.url, { token: BOB, listen: false });
      const principals = gateway.sessions().map((session) => session.profile);
      expect(principals.filter((profile) => profile === 'alice')).toHaveLength(2);
      expect(principals.filter((profile) => profile === 'bob')).toHaveLength(2);
      await expect(alice[0]!.names()).rejects.toMatchObject({ code: 404 });
      // Alice (2) may not push out Bob (2): she makes room from her own idle sessions.
      const aliceAgain = await connectHttpClient(listener.url, { token: ALICE, listen: false });
      expect(await bob.names()).toContain('hang');
      expect(await bobAgain.names()).toContain('hang');
      await expect(alice[1]!.names()).rejects.toMatchObject({ code: 404 });
      await Promise.all([...alice, bob, bobAgain, aliceAgain].map((client) => client.close()));
    }, 60_000);

    it('refuses options that are not positive whole numbers', async () => {
      const gateway = createGatewayServer({ pool, config });
      gateways.push(gateway);
      for (const options of [
        { maxSessionsPerPrincipal: 0 },
        { maxConnections: -1 },
        { headersTimeoutMs: Number.NaN },
        { bodyTimeoutMs: 0 },
      ]) {
        await expect(
          listenGatewayHttp(gateway, { token: ALICE, ...options }),
        ).rejects.toMatchObject({
          code: 'invalid_config',
          message: expect.stringContaining(Object.keys(options)[0]!),
        });
      }
    });
  });

  describe('slow and idle clients', () => {
    it('cuts off a body that never finishes (slowloris), before and inside a session', async () => {
      const { listener } = await listen({ bodyTimeoutMs: 500 });
      const slow = await openSocket(listener);
      slow.socket.write(postHead(listener, ALICE, INITIALIZE.length));
      slow.socket.write(INITIALIZE.slice(0, 10));
      await slow.closed;
      expect(slow.received()).toMatch(/^HTTP\/1\.1 408/);
      expect(slow.received()).toContain('did not arrive within 500 ms');

      // A request the SDK transport reads itself (one with a session id).
      const client = await connectHttpClient(listener.url, { token: ALICE, listen: false });
      const inSession = await openSocket(listener);
      inSession.socket.write(
        postHead(
          listener,
          ALICE,
          200,
          `Mcp-Session-Id: ${client.transport!.sessionId}\r\nMcp-Protocol-Version: 2025-06-18\r\n`,
        ),
      );
      inSession.socket.write('{"jsonrpc":"2.0",');
      await inSession.closed;
      expect(inSession.received()).toMatch(/^HTTP\/1\.1 408/);
      // The session itself lives on.
      expect(await client.names()).toContain('hang');
      await client.close();
    }, 30_000);

    it('does not cut off a long call: the deadlines cover receiving the request, not the answer', async () => {
      const { listener } = await listen({ headersTimeoutMs: 200, bodyTimeoutMs: 200 });
      const client = await connectHttpClient(listener.url, { token: ALICE });
      // The call outlives both deadlines many times; only the client's own timeout ends it.
      await expect(
        client.client.request(
          { method: 'tools/call', params: { name: 'hang', arguments: {} } },
          CallToolResultSchema,
          { timeout: 2_500 },
        ),
      ).rejects.toMatchObject({ code: ErrorCode.RequestTimeout });
      expect(await client.names()).toContain('hang');
      await client.close();
    }, 30_000);

    it('closes a socket that connects and never sends a byte', async () => {
      const { listener } = await listen({ headersTimeoutMs: 500 });
      const silent = await openSocket(listener);
      // Node's headers deadline covers a request that never starts, too.
      await silent.closed;
      expect(silent.received()).toMatch(/^HTTP\/1\.1 408/);
    }, 30_000);

    it('closes a socket whose headers never finish', async () => {
      const { listener } = await listen({ headersTimeoutMs: 500 });
      const slow = await openSocket(listener);
      slow.socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${listener.port}\r\n`);
      const timer = setInterval(() => {
        if (!slow.isClosed()) slow.socket.write('X-Drip: 1\r\n');
      }, 100);
      await slow.closed;
      clearInterval(timer);
      expect(slow.received()).toMatch(/^HTTP\/1\.1 408/);
    }, 30_000);

    it('refuses sockets beyond maxConnections, and takes new ones once they close', async () => {
      const { listener } = await listen({ maxConnections: 3 });
      const held = await Promise.all([0, 1, 2].map(() => openSocket(listener)));
      // The server counts a socket once it accepted it.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const extra = await openSocket(listener);
      await extra.closed;
      expect(extra.received()).toBe('');
      expect(held.some((socket) => socket.isClosed())).toBe(false);

      for (const socket of held) socket.socket.destroy();
      await Promise.all(held.map((socket) => socket.closed));
      await new Promise((resolve) => setTimeout(resolve, 200));
      const client = await connectHttpClient(listener.url, { token: ALICE, listen: false });
      expect(await client.names()).toContain('hang');
      await client.close();
    }, 30_000);
  });
});
