// `reload` and SIGHUP against a real `serve --transport http --console` process: a server
// added to the config file serves while a session goes on; a file that does not parse
// changes nothing and says why.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@tool-search/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainClient, textOf } from './__fixtures__/console.js';
import { startReplica, type TestReplica } from './__fixtures__/replicas.js';
import { runCli } from './__fixtures__/run.js';

const TOKEN = 'reload-gateway-token-0123456789ab';
const OPS_TOKEN = 'reload-ops-token-0123456789abcdef';
const NOISY_SERVER = fileURLToPath(
  new URL('../../../packages/mcp-http/src/__fixtures__/noisy-server.mjs', import.meta.url),
);
const noisy = (prefix: string) => ({
  command: process.execPath,
  args: [NOISY_SERVER],
  env: { NOISY_PREFIX: prefix },
});

describe('tool-search-gateway reload, and SIGHUP', () => {
  let folder: string;
  let configPath: string;
  let gateway: TestReplica;
  let url: string;
  const writeConfig = (servers: Record<string, unknown>) =>
    writeFileSync(configPath, JSON.stringify({ mcpServers: servers, console: { enabled: true } }));

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'tool-search-reload-'));
    configPath = join(folder, 'gateway.json');
    writeConfig({ first: noisy('first') });
    const port = await freePort();
    gateway = await startReplica(configPath, port, ['--token', TOKEN]);
    url = `http://127.0.0.1:${port}/`;
  }, 90_000);
  afterAll(async () => {
    await gateway?.kill();
    rmSync(folder, { recursive: true, force: true });
  });

  it('adds a server on `reload` while a session goes on, and shows what changed', async () => {
    const agent = await plainClient(`${url}mcp`, TOKEN);
    expect(textOf(await agent.call('first_echo', { message: 'a' }))).toBe('echo: a');
    writeConfig({ first: noisy('first'), second: noisy('second') });
    const dry = await runCli(['reload', '--config', configPath, '--url', url, '--dry-run'], {
      env: { TOOL_SEARCH_GATEWAY_TOKEN: TOKEN },
    });
    expect(dry.stdout).toContain('dry run');
    expect(dry.stdout).toContain('servers added: second');
    const run = await runCli(['reload', '--config', configPath, '--url', url, '--token', TOKEN]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('servers added: second');
    expect(textOf(await agent.call('second_echo', { message: 'b' }))).toBe('echo: b');
    expect(textOf(await agent.call('first_echo', { message: 'c' }))).toBe('echo: c');
    await agent.client.close();
  }, 60_000);

  it('refuses a config file that does not parse, before it asks the gateway (exit 2)', async () => {
    writeFileSync(configPath, '{ "mcpServers": ');
    const run = await runCli(['reload', '--config', configPath, '--url', url, '--token', TOKEN]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/error: .*JSON/);
  });

  it('removes a server on SIGHUP, and a bad file on SIGHUP changes nothing and says why', async () => {
    writeConfig({ first: noisy('first') });
    gateway.child.kill('SIGHUP');
    await expect
      .poll(() => gateway.stderr(), { timeout: 20_000 })
      .toContain('servers removed: second');
    writeFileSync(configPath, '{ "mcpServers": ');
    gateway.child.kill('SIGHUP');
    await expect
      .poll(() => gateway.stderr(), { timeout: 20_000 })
      .toMatch(/SIGHUP: reload: nothing changed: .*JSON/);
    const agent = await plainClient(`${url}mcp`, TOKEN);
    expect(textOf(await agent.call('first_echo', { message: 'd' }))).toBe('echo: d');
    await agent.client.close();
  }, 60_000);

  it('applies a deny rule and a profile token on SIGHUP to the running process, and refuses the token once removed', async () => {
    writeConfig({ first: noisy('first') });
    const agent = await plainClient(`${url}mcp`, TOKEN);
    expect(textOf(await agent.call('first_echo', { message: 'e' }))).toBe('echo: e');
    await expect(plainClient(`${url}mcp`, OPS_TOKEN)).rejects.toThrow();
    writeFileSync(
      configPath,
      JSON.stringify({
        mcpServers: { first: noisy('first') },
        console: { enabled: true },
        guardrails: { deny: ['first_echo'] },
        profiles: { ops: { token: OPS_TOKEN } },
      }),
    );
    gateway.child.kill('SIGHUP');
    await expect
      .poll(() => gateway.stderr(), { timeout: 20_000 })
      .toMatch(/applied to the open sessions: profiles, guardrails/);
    // The open session's next call of the denied tool is refused; the session goes on.
    const denied = await agent.call('first_echo', { message: 'f' });
    expect(denied.isError).toBe(true);
    expect((await agent.call('first_say', { text: 'g' })).isError).toBeFalsy();
    // The token added connects at once.
    const ops = await plainClient(`${url}mcp`, OPS_TOKEN);
    expect((await ops.call('first_pid', {})).isError).toBeFalsy();
    writeConfig({ first: noisy('first') });
    const run = await runCli(['reload', '--config', configPath, '--url', url, '--token', TOKEN]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('sessions ended (profile removed): 1');
    await expect(ops.call('first_pid', {})).rejects.toThrow();
    await expect(plainClient(`${url}mcp`, OPS_TOKEN)).rejects.toThrow();
    expect(textOf(await agent.call('first_echo', { message: 'h' }))).toBe('echo: h');
    await agent.client.close();
    await ops.client.close().catch(() => {});
  }, 60_000);
});
