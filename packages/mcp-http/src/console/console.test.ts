import { createHash, createHmac } from 'node:crypto';
import { answerPendingApproval } from '@tool-search/mcp';
import { parseGatewayConfig } from '@tool-search/mcp/config';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostileInProcess } from '../../../mcp/src/__fixtures__/in-process.js';
import { connectHttpClient, textOf, until } from '../__fixtures__/clients.js';
import { type StartedGateway, startGateway } from '../start.js';

const TOKEN = 'console-test-token-0123456789ab';

const config = parseGatewayConfig({
  mcpServers: { hostile: hostileInProcess() },
  approval: { require: ['hostile_echo'], via: 'elicitation-or-console', timeoutMs: 30_000 },
  console: { enabled: true },
});

describe('startGateway with the console', () => {
  let gateway: StartedGateway;
  let api: (path: string, init?: RequestInit) => Promise<Response>;

  beforeAll(async () => {
    gateway = await startGateway({ config, http: { port: 0, token: TOKEN } });
    await gateway.ready();
    api = (path, init) => fetch(new URL(`/console/${path}`, gateway.url), init);
  });
  afterAll(async () => {
    await gateway?.close();
  });

  it('asks a client that supports elicitation itself, and sends the others to the console', async () => {
    const asked: string[] = [];
    const withElicitation = await connectHttpClient(gateway.url!, {
      token: TOKEN,
      elicit: (params) => {
        asked.push(params.message);
        return { action: 'accept', content: { decision: 'allow-once' } };
      },
    });
    expect(textOf(await withElicitation.call('hostile_echo', { message: 'one' }))).toBe(
      'hostile echo: one',
    );
    expect(asked).toHaveLength(1);
    expect(await gateway.store.listPendingApprovals()).toEqual([]);
    const without = await connectHttpClient(gateway.url!, { token: TOKEN });
    const waiting = without.call('hostile_echo', { message: 'two' });
    const [pending] = await until(async () => {
      const list = await gateway.store.listPendingApprovals();
      return list.length > 0 && list;
    });
    expect(pending).toMatchObject({ tool: 'hostile_echo', arguments: { message: 'two' } });
    expect(await answerPendingApproval(gateway.store, pending!.id, 'allow-once')).toBe('delivered');
    expect(textOf(await waiting)).toBe('hostile echo: two');
    await Promise.all([withElicitation.close(), without.close()]);
  });

  it('answers its API only to a signed-in operator, only from its own origin, with a strict CSP', async () => {
    expect((await api('api/approvals')).status).toBe(401);
    const refused = await api('api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: 'wrong-token-0123456789abcdef' }),
    });
    expect(refused.status).toBe(401);
    // A form post (no JSON content type) signs nobody in.
    const form = await api('api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `token=${TOKEN}`,
    });
    expect(form.status).toBe(401);
    const foreign = await api('api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://evil.example' },
      body: JSON.stringify({ token: TOKEN }),
    });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('set-cookie')).toBeNull();
    const signedIn = await api('api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: TOKEN }),
    });
    expect(signedIn.status).toBe(200);
    const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
    const { csrf } = (await signedIn.json()) as { csrf: string };
    const tools = await api('api/tools', { headers: { cookie } });
    expect(tools.status).toBe(200);
    expect(tools.headers.get('content-security-policy')).toContain("default-src 'self'");
    const view = (await tools.json()) as { tools: { key: string; loading: string }[] };
    expect(view.tools.map((tool) => tool.key)).toContain('hostile/hostile_echo');
    const ended = await api('api/sessions/end', {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', 'x-csrf-token': csrf },
      body: JSON.stringify({ id: 'no-such-session' }),
    });
    expect(ended.status).toBe(404);
    // Only the console's own routes answer, never what an object inherits.
    for (const route of ['constructor', '__proto__', 'toString']) {
      expect((await api(`api/${route}`, { headers: { cookie } })).status).toBe(404);
    }
    // Signing out is a change too: it needs the CSRF token.
    const signOut = (token: string) =>
      api('api/logout', {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', 'x-csrf-token': token },
        body: '{}',
      });
    expect((await signOut('wrong')).status).toBe(403);
    expect((await signOut(csrf)).headers.get('set-cookie')).toContain('Max-Age=0');
    // The signed-out cookie is dead on the server too, not only cleared in the browser.
    expect((await api('api/tools', { headers: { cookie } })).status).toBe(401);
    expect((await signOut(csrf)).status).toBe(401);
    // The page is the front end this package ships built, under the same policy.
    const page = await api('');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await page.text()).toContain('console.js');
  });

  it('has no console session at all on a gateway without a token, forged cookie or not', async () => {
    const open = await startGateway({ config, http: { port: 0 } });
    try {
      const at = (path: string, init?: RequestInit) =>
        fetch(new URL(`/console/${path}`, open.url), init);
      const login = await at('api/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: 'anything-at-all-0123456789' }),
      });
      expect(login.status).toBe(401);
      expect(((await login.json()) as { error: string }).error).toMatch(/no token/);
      // A cookie and CSRF token signed with the constant a token-less gateway once used.
      const key = createHash('sha256').update('tool-search http tokens v1').digest();
      const mac = (text: string) => createHmac('sha256', key).update(text).digest('base64url');
      const payload = Buffer.from(
        JSON.stringify({ principal: 'default', expiresAt: Date.now() + 1e9, nonce: 'n' }),
      ).toString('base64url');
      const headers = {
        cookie: `tool_search_console=${payload}.${mac(`cookie:${payload}`)}`,
        'x-csrf-token': mac('csrf:n'),
        'content-type': 'application/json',
      };
      expect((await at('api/approvals', { headers })).status).toBe(401);
      const answered = await at('api/approvals/answer', {
        method: 'POST',
        headers,
        body: JSON.stringify({ id: 'x', decision: 'allow-once' }),
      });
      expect(answered.status).toBe(401);
    } finally {
      await open.close();
    }
  });

  it('is served only from an HTTP listener: asked for without one, it is a config error', async () => {
    await expect(startGateway({ config, console: {} })).rejects.toMatchObject({
      code: 'invalid_config',
      data: { field: 'console' },
    });
    // The config's console does not stop a gateway of the same config without HTTP.
    const withoutHttp = await startGateway({ config });
    expect(withoutHttp.console).toBeUndefined();
    await withoutHttp.close();
  });
});
