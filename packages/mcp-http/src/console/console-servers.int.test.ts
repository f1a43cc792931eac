// The console's Servers endpoints with real upstream processes: a reload that adds a
// server while a session keeps working, a restart of a healthy server, a config that does
// not parse, and the hostile pass (CSRF, a non-operator token, markup and secrets in stderr).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadGatewayConfig } from '@tool-search/mcp/config';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttpClient, type TestClient, textOf, until } from '../__fixtures__/clients.js';
import { type StartedGateway, startGateway } from '../start.js';

const TOKEN = 'servers-gateway-token-0123456789';
const AGENT_TOKEN = 'servers-agent-token-0123456789ab';
const SECRET = 'upstream-secret-0123456789abcdef';
const NOISY = fileURLToPath(new URL('../__fixtures__/noisy-server.mjs', import.meta.url));

const noisy = (prefix: string) => ({
  command: process.execPath,
  args: [NOISY],
  env: { NOISY_PREFIX: prefix, NOISY_SECRET: SECRET },
});

describe('the console’s Servers endpoints, with real upstream processes', () => {
  let folder: string;
  let configPath: string;
  let gateway: StartedGateway;
  let client: TestClient;
  let cookie: string;
  let csrf: string;
  const writeConfig = (servers: Record<string, unknown>) =>
    writeFile(
      configPath,
      JSON.stringify({
        mcpServers: servers,
        profiles: { agent: { token: AGENT_TOKEN } },
        console: { enabled: true },
      }),
    );
  const api = (path: string, init?: RequestInit) =>
    fetch(new URL(`/console/api/${path}`, gateway.url), init);
  const change = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    api(path, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', 'x-csrf-token': csrf, ...headers },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'console-servers-'));
    configPath = join(folder, 'gateway.json');
    await writeConfig({ first: noisy('first') });
    gateway = await startGateway({
      config: await loadGatewayConfig(configPath),
      loadConfig: () => loadGatewayConfig(configPath),
      http: { port: 0, token: TOKEN },
    });
    await gateway.ready();
    const login = await api('login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: TOKEN }),
    });
    cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    csrf = ((await login.json()) as { csrf: string }).csrf;
    client = await connectHttpClient(gateway.url!, { token: AGENT_TOKEN });
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await gateway?.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('shows a server’s recent stderr with markup as text, escapes shown escaped and secrets redacted', async () => {
    await client.call('first_say', { text: `late line <script>alert(1)</script> token=${SECRET}` });
    const lines = await until(async () => {
      const answer = (await (
        await api('servers/logs?server=first', { headers: { cookie } })
      ).json()) as {
        lines: { source: string; text: string }[];
      };
      return answer.lines.some((line) => line.text.includes('late line')) && answer.lines;
    });
    const text = JSON.stringify(lines);
    expect(text).not.toContain(SECRET);
    expect(text).toContain('[redacted]');
    expect(text).not.toContain('\u001b');
    expect(text).toContain('\\\\x1b[2J');
    // Markup is kept as text: the page shows it with textContent, never as HTML.
    expect(lines.some((line) => line.text.includes('<img src=x'))).toBe(true);
    expect(lines.every((line) => line.source === 'stderr' || line.source === 'event')).toBe(true);
  });

  it('restarts a healthy server: a new process, the same tools, the session goes on', async () => {
    const before = textOf(await client.call('first_pid', {}));
    const restarted = await change('servers/restart', { server: 'first' });
    expect(restarted.status).toBe(200);
    expect(await restarted.json()).toEqual({ server: 'first', outcome: 'restarted' });
    const after = textOf(await client.call('first_pid', {}));
    expect(after).not.toBe(before);
    expect(textOf(await client.call('first_echo', { message: 'still here' }))).toBe(
      'echo: still here',
    );
    const { lines } = (await (
      await api('servers/logs?server=first', { headers: { cookie } })
    ).json()) as {
      lines: { text: string }[];
    };
    expect(lines.some((line) => line.text.includes('restart asked by an operator'))).toBe(true);
  });

  it('reloads a config that adds a server while the session keeps working', async () => {
    await writeConfig({ first: noisy('first'), second: noisy('second') });
    const preview = await change('servers/reload', { dryRun: true });
    expect(await preview.json()).toMatchObject({
      ok: true,
      dryRun: true,
      servers: { added: ['second'], removed: [], changed: [] },
    });
    expect(gateway.pool.status().map((server) => server.name)).toEqual(['first']);
    const reload = await change('servers/reload', {});
    expect(reload.status).toBe(200);
    expect(await reload.json()).toMatchObject({
      ok: true,
      dryRun: false,
      servers: { added: ['second'], removed: [], changed: [] },
    });
    // The same session sees the new server's tools and calls both.
    await until(async () => (await client.names()).includes('second_echo'));
    expect(textOf(await client.call('second_echo', { message: 'new' }))).toBe('echo: new');
    expect(textOf(await client.call('first_echo', { message: 'old' }))).toBe('echo: old');
  });

  it('changes nothing for a config that does not parse, and says why', async () => {
    await writeFile(configPath, '{ "mcpServers": { "first": ');
    const reload = await change('servers/reload', {});
    expect(reload.status).toBe(422);
    const report = (await reload.json()) as { ok: boolean; error: string };
    expect(report.ok).toBe(false);
    expect(report.error).toMatch(/^nothing changed: .*JSON/);
    expect(gateway.pool.status().map((server) => server.name)).toEqual(['first', 'second']);
    expect(textOf(await client.call('second_echo', { message: 'on' }))).toBe('echo: on');
  });

  it('refuses a change without the CSRF token, and a token that is not an operator’s', async () => {
    const noCsrf = await api('servers/restart', {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ server: 'first' }),
    });
    expect(noCsrf.status).toBe(403);
    const wrongCsrf = await change('servers/reload', {}, { 'x-csrf-token': 'wrong' });
    expect(wrongCsrf.status).toBe(403);
    const agent = await api('login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: AGENT_TOKEN }),
    });
    expect(agent.status).toBe(401);
    expect(agent.headers.get('set-cookie')).toBeNull();
    // The agent's bearer token opens no console route either.
    const bearer = await api('servers/logs?server=first', {
      headers: { authorization: `Bearer ${AGENT_TOKEN}` },
    });
    expect(bearer.status).toBe(401);
    const unknown = await change('servers/restart', { server: '<img src=x>' });
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).not.toContain('<img');
  });
});
