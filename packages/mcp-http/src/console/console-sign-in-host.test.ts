import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createFileSignInStore,
  createSignInBroker,
  createUpstreamAuthProviders,
} from '@tool-search/mcp/auth';
import { parseGatewayConfig } from '@tool-search/mcp/config';
import { type StandIn, startOAuthStandIn } from '@tool-search/mcp/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type StartedGateway, startGateway } from '../start.js';

const TOKEN = 'console-host-test-token-0123456';

/** A POST to the gateway on loopback naming another `Host` (fetch may not set it). */
function post(
  port: number,
  host: string,
  path: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<{ status: number; text: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: 'POST', headers: { ...headers, host } },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe("a console sign-in's redirect goes back only to a host the operator listed", () => {
  let standIn: StandIn | undefined;
  let gateway: StartedGateway | undefined;
  let folder: string | undefined;
  afterEach(async () => {
    await gateway?.close();
    await standIn?.close();
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  });

  const start = async (allowedHosts?: string[]) => {
    standIn = await startOAuthStandIn();
    folder = await mkdtemp(join(tmpdir(), 'console-host-'));
    const store = createFileSignInStore(join(folder, 'sign-ins'));
    const url = standIn.mcpUrl;
    gateway = await startGateway({
      config: parseGatewayConfig({
        mcpServers: { docs: { url, auth: 'oauth' } },
        console: { enabled: true },
      }),
      // Bound to every address and no allowedHosts: the host step lets any Host through.
      http: {
        host: '0.0.0.0',
        port: 0,
        token: TOKEN,
        ...(allowedHosts === undefined ? {} : { allowedHosts }),
      },
      pool: { authProvider: createUpstreamAuthProviders({ store }) },
      console: {
        signInFlow: createSignInBroker({
          store,
          target: (server) => (server === 'docs' ? { url, auth: { type: 'oauth' } } : undefined),
        }),
      },
    });
    await gateway.ready();
    return Number(new URL(gateway.url!).port);
  };

  const startFrom = async (port: number, host: string) => {
    const login = await post(
      port,
      host,
      '/console/api/login',
      { 'content-type': 'application/json' },
      { token: TOKEN },
    );
    expect(login.status).toBe(200);
    const { csrf } = JSON.parse(login.text) as { csrf: string };
    const cookie = String(login.headers['set-cookie'] ?? '').split(';')[0]!;
    return post(
      port,
      host,
      '/console/api/sign-ins/start',
      { 'content-type': 'application/json', 'x-csrf-token': csrf, cookie },
      { server: 'docs' },
    );
  };

  it('refuses to start a sign-in whose redirect would go to a forged Host', async () => {
    const port = await start();
    const forged = await startFrom(port, 'evil.example');
    expect(forged.status).toBe(400);
    expect(forged.text).toMatch(/'evil.example' is not one of the listener's allowedHosts/);
    expect(standIn!.hits.get('/authorize') ?? 0).toBe(0);
    const local = await startFrom(port, `127.0.0.1:${port}`);
    expect(local.status).toBe(200);
    expect(decodeURIComponent(JSON.parse(local.text).url)).toContain(
      `redirect_uri=http://127.0.0.1:${port}/console/sign-in/callback`,
    );
  });

  it('starts one on a host the listener lists', async () => {
    const port = await start(['gateway.example:8443']);
    const listed = await startFrom(port, 'gateway.example:8443');
    expect(listed.status).toBe(200);
    expect(decodeURIComponent(JSON.parse(listed.text).url)).toContain(
      'redirect_uri=http://gateway.example:8443/console/sign-in/callback',
    );
  });
});
