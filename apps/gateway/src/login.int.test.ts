import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type StandIn, startOAuthStandIn } from '@tool-search/mcp/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopProcess } from './__fixtures__/processes.js';
import { runCli } from './__fixtures__/run.js';
import { connectGateway, loginAsPerson, printed, startServe } from './__fixtures__/sign-in.js';

const TOKEN = 'sign-in-test-gateway-token-0123';

describe('login, serve, inspect and logout with a server that needs sign-in', () => {
  let standIn: StandIn;
  let workspace: string;
  let config: string;
  let env: Record<string, string>;

  const run = async (args: string[]) => {
    const result = await runCli(args, { env });
    printed.push(result.stdout, result.stderr);
    return result;
  };

  beforeAll(async () => {
    standIn = await startOAuthStandIn();
    workspace = mkdtempSync(join(tmpdir(), 'gw-sign-in-'));
    config = join(workspace, 'gateway.json');
    env = { TOOL_SEARCH_STATE_DIR: join(workspace, 'state') };
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { docs: { url: standIn.mcpUrl, auth: 'oauth' } },
        profiles: {
          alice: { token: 'alice-token-0123456789abcdef' },
          bob: { token: 'bob-token-0123456789abcdef00' },
        },
      }),
    );
  });

  afterAll(async () => {
    await standIn.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('login prints the URL on a line of its own, takes the redirect, stores the tokens owner-only, exits 0', async () => {
    const login = await loginAsPerson(['docs', '--config', config], env);
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toMatch(
      /^Open this URL to sign in: http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+$/m,
    );
    expect(login.page).toBe(200);
    expect(login.stdout).toContain('Signed in to docs');
    const folder = join(workspace, 'state', 'sign-ins');
    expect(readdirSync(folder)).toEqual(['docs.json']);
    expect(statSync(join(folder, 'docs.json')).mode & 0o777).toBe(0o600);
  });

  it('inspect shows the sign-in state and expiry, and reaches the server with it', async () => {
    const result = await run(['inspect', '--config', config]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /docs: signed in at http:\/\/127\.0\.0\.1:\d+, expires \S+ \(in \d+ min\), refreshable/,
    );
    expect(result.stdout).toMatch(/docs\s+ready\s+1/);
  });

  it('serve uses the stored token, refreshes it when refused, and names the server when the refresh is refused', async () => {
    const served = await startServe(['--config', config, '--token', TOKEN], env);
    try {
      const gateway = await connectGateway(served.url, TOKEN);
      const tools = (await gateway.client.listTools()).tools.map((tool) => tool.name);
      const whoami = tools.find((name) => name.endsWith('whoami'));
      expect(whoami, tools.join(',')).toBeDefined();
      expect(await gateway.call(whoami!)).toEqual({ text: 'you are signed in', isError: false });

      standIn.expireAccessTokens();
      const refreshesBefore = standIn.hits.get('/token') ?? 0;
      expect(await gateway.call(whoami!)).toEqual({ text: 'you are signed in', isError: false });
      expect(standIn.hits.get('/token')).toBe(refreshesBefore + 1);

      standIn.expireAccessTokens();
      standIn.refuseRefresh();
      const refused = await gateway.call(whoami!);
      expect(refused.isError).toBe(true);
      expect(refused.text).toContain("server 'docs' needs sign-in");
      const tokenHits = standIn.hits.get('/token');
      const mcpHits = standIn.hits.get('/mcp');
      for (let index = 0; index < 3; index += 1) {
        const again = await gateway.call(whoami!);
        expect(again.isError).toBe(true);
      }
      // No retry loop: the refused sign-in is not asked for again, nor the server hammered.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(standIn.hits.get('/token')).toBe(tokenHits);
      expect((standIn.hits.get('/mcp') ?? 0) - (mcpHits ?? 0)).toBeLessThanOrEqual(3);
      await gateway.client.close();
    } finally {
      await stopProcess(served.child);
    }
  });

  it('inspect says the server needs sign-in once the refresh was refused; login again works', async () => {
    const result = await run(['inspect', '--config', config]);
    expect(result.stdout).toContain(
      'docs: needs sign-in: run tool-search-gateway login docs --config <file>',
    );
    expect(result.stdout).toMatch(/docs\s+failed\s+0\s+0\s+0\s+server 'docs' needs sign-in/);
    const login = await loginAsPerson(['docs', '--config', config], env);
    expect(login.code, login.stderr).toBe(0);
  });

  it("a profile signs in on its own; a profile without a sign-in gets the error, never the gateway's token", async () => {
    const bob = await run(['inspect', '--config', config, '--profile', 'bob']);
    expect(bob.stdout).toContain(
      'docs: needs sign-in: run tool-search-gateway login docs --profile bob',
    );
    expect(bob.stdout).toContain("server 'docs' needs sign-in for profile 'bob'");
    const mcpBefore = standIn.hits.get('/mcp') ?? 0;
    const login = await loginAsPerson(['docs', '--config', config, '--profile', 'alice'], env);
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toContain("as profile 'alice'");
    const alice = await run(['inspect', '--config', config, '--profile', 'alice']);
    expect(alice.stdout).toMatch(/docs: signed in at/);
    expect(alice.stdout).toMatch(/docs\s+ready\s+1/);
    expect(standIn.hits.get('/mcp') ?? 0).toBeGreaterThan(mcpBefore);
    expect(readdirSync(join(workspace, 'state', 'sign-ins')).sort()).toEqual([
      'docs%40alice.json',
      'docs.json',
    ]);
  });

  it('logout forgets the sign-in; a server that does not sign in is refused with exit 2', async () => {
    const out = await run(['logout', 'docs', '--config', config, '--profile', 'alice']);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain("Signed out of docs for profile 'alice'.");
    const again = await run(['logout', 'docs', '--config', config, '--profile', 'alice']);
    expect(again.stdout).toContain("No sign-in to docs for profile 'alice' was stored.");
    const unknown = await run(['login', 'nope', '--config', config]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Unknown server 'nope'");
    const operator = await run(['logout', 'docs', '--config', config]);
    expect(operator.stdout).toContain('Signed out of docs.');
    const inspect = await run(['inspect', '--config', config]);
    expect(inspect.stdout).toContain('docs: needs sign-in');
  });

  it('no token ever appears in what the processes printed or answered', () => {
    expect(standIn.issued.length).toBeGreaterThan(4);
    const all = printed.join('\n');
    for (const token of standIn.issued) expect(all).not.toContain(token);
  });
});
