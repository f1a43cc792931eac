// A reload that changes rules and profiles, with real upstream processes and a real
// HTTP listener: an open session's next call meets a new deny rule and the session goes
// on; a profile token added connects at once; one removed is refused at once, on the
// 2025 sessions and any new request alike.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { loadGatewayConfig } from '@tool-search/mcp/config';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttpClient, type TestClient, textOf } from '../__fixtures__/clients.js';
import { type StartedGateway, startGateway } from '../start.js';

const TOKEN = 'reload-live-gateway-token-01234';
const AGENT_TOKEN = 'reload-live-agent-token-0123456';
const OPS_TOKEN = 'reload-live-ops-token-012345678';
const NOISY = fileURLToPath(new URL('../__fixtures__/noisy-server.mjs', import.meta.url));

const noisy = (prefix: string) => ({
  command: process.execPath,
  args: [NOISY],
  env: { NOISY_PREFIX: prefix },
});

/** A v2 client pinned to the stateless 2026-07-28 revision, with a bearer token. */
async function connectModern(url: string, token: string): Promise<Client> {
  const client = new Client(
    { name: 'reload-modern', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

describe('a reload applies rules and profiles while sessions go on (real processes)', () => {
  let folder: string;
  let configPath: string;
  let gateway: StartedGateway;
  let agent: TestClient;
  const writeConfig = (rest: Record<string, unknown>) =>
    writeFile(
      configPath,
      JSON.stringify({
        mcpServers: { first: noisy('first') },
        toolSearch: { enabled: 'off' },
        console: { enabled: true },
        ...rest,
      }),
    );
  const agentProfile = { agent: { token: AGENT_TOKEN } };
  const initialize = (token: string) =>
    fetch(gateway.url!, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'probe', version: '1' },
        },
      }),
    });

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'reload-live-'));
    configPath = join(folder, 'gateway.json');
    await writeConfig({ profiles: agentProfile });
    gateway = await startGateway({
      config: await loadGatewayConfig(configPath),
      loadConfig: () => loadGatewayConfig(configPath),
      http: { port: 0, token: TOKEN },
    });
    await gateway.ready();
    agent = await connectHttpClient(gateway.url!, { token: AGENT_TOKEN });
  }, 60_000);

  afterAll(async () => {
    await agent?.close().catch(() => {});
    await gateway?.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('denies a tool at an open session’s next call after a reload adds the rule; the session keeps working', async () => {
    expect(textOf(await agent.call('first_echo', { message: 'before' }))).toBe('echo: before');
    await writeConfig({ profiles: agentProfile, guardrails: { deny: ['first_echo'] } });
    const report = await gateway.reload();
    expect(report).toMatchObject({ ok: true, applied: ['guardrails'], notApplied: [] });
    const denied = await agent.call('first_echo', { message: 'after' });
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).not.toContain('echo: after');
    // The same session goes on with the tools the rule leaves.
    expect((await agent.call('first_pid', {})).isError).toBeFalsy();
  });

  it('lets a profile token added by a reload connect at once, and refuses it at once once removed', async () => {
    expect((await initialize(OPS_TOKEN)).status).toBe(401);
    await writeConfig({ profiles: { ...agentProfile, ops: { token: OPS_TOKEN } } });
    const added = await gateway.reload();
    expect(added).toMatchObject({ ok: true, profiles: { added: ['ops'] } });
    expect(added.ok && added.applied).toContain('profiles');
    const ops = await connectHttpClient(gateway.url!, { token: OPS_TOKEN });
    expect(textOf(await ops.call('first_echo', { message: 'ops' }))).toBe('echo: ops');
    const modern = await connectModern(gateway.url!, OPS_TOKEN);
    const modernCall = await modern.callTool({ name: 'first_echo', arguments: { message: 'm' } });
    expect(textOf(modernCall as Parameters<typeof textOf>[0])).toBe('echo: m');

    await writeConfig({ profiles: agentProfile });
    const removed = await gateway.reload();
    expect(removed).toMatchObject({ ok: true, profiles: { removed: ['ops'] } });
    expect(removed.ok && removed.endedSessions).toHaveLength(1);
    // A new session of the removed token, and the open one's next request, are refused.
    expect((await initialize(OPS_TOKEN)).status).toBe(401);
    await expect(ops.call('first_echo', { message: 'gone' })).rejects.toThrow();
    await ops.close().catch(() => {});
    // The stateless (2026-07-28) leg refuses the removed token at its next request too.
    await expect(
      modern.callTool({ name: 'first_echo', arguments: { message: 'gone' } }),
    ).rejects.toThrow();
    await modern.close().catch(() => {});
    // The other sessions go on.
    expect((await agent.call('first_pid', {})).isError).toBeFalsy();
    expect((await initialize(AGENT_TOKEN)).status).toBe(200);
  });

  it('lets an operator profile added by a reload sign in to the console, and signs it out once removed', async () => {
    const api = (path: string, init?: RequestInit) =>
      fetch(new URL(`/console/api/${path}`, gateway.url), init);
    const login = () =>
      api('login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: OPS_TOKEN }),
      });
    expect((await login()).status).not.toBe(200);
    await writeConfig({ profiles: { ...agentProfile, ops: { token: OPS_TOKEN, operator: true } } });
    expect(await gateway.reload()).toMatchObject({ ok: true, profiles: { added: ['ops'] } });
    const signedIn = await login();
    expect(signedIn.status).toBe(200);
    const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
    expect((await api('servers/logs?server=first', { headers: { cookie } })).status).toBe(200);
    await writeConfig({ profiles: agentProfile });
    expect(await gateway.reload()).toMatchObject({ ok: true, profiles: { removed: ['ops'] } });
    expect((await api('servers/logs?server=first', { headers: { cookie } })).status).toBe(401);
  });

  it('applies new pins to the pool on a reload', async () => {
    const pinned = () =>
      gateway.pool
        .tools()
        .filter((tool) => tool.alwaysLoad === true)
        .map((tool) => tool.name);
    expect(pinned()).toEqual([]);
    await writeConfig({ profiles: agentProfile, pins: { tools: ['first_pid'] } });
    const report = await gateway.reload();
    expect(report).toMatchObject({ ok: true, applied: ['pins'], notApplied: [] });
    expect(pinned()).toEqual(['first_pid']);
    await writeConfig({ profiles: agentProfile });
    expect(await gateway.reload()).toMatchObject({ ok: true, applied: ['pins'] });
    expect(pinned()).toEqual([]);
  });

  it('changes nothing when the new config does not parse', async () => {
    await writeFile(configPath, '{ "mcpServers": ');
    const report = await gateway.reload();
    expect(report.ok).toBe(false);
    // The last applied config stays in force: no deny rule, no 'ops' token.
    expect(textOf(await agent.call('first_echo', { message: 'x' }))).toBe('echo: x');
    expect((await initialize(OPS_TOKEN)).status).toBe(401);
    expect((await initialize(AGENT_TOKEN)).status).toBe(200);
  });
});
