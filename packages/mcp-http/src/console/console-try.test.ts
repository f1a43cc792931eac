// Try a tool from the console: the operator's call runs through the session pipeline as a
// model's call does (scope, guardrails, approval, audit), audited as the console's and
// its operator's; and a hostile pass on the endpoint.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { StoredAuditRecord } from '@tool-search/mcp';
import { parseGatewayConfig } from '@tool-search/mcp/config';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttpClient, textOf, until } from '../__fixtures__/clients.js';
import { type ConsoleSession, consoleUpstream, signInConsole } from '../__fixtures__/console.js';
import { type StartedGateway, startGateway } from '../start.js';

const TOKEN = 'console-try-gateway-0123456789ab';
const OPS = 'console-try-ops-token-0123456789';
const AGENT = 'console-try-agent-token-01234567';

async function audited(gateway: StartedGateway, tool: string): Promise<StoredAuditRecord> {
  return until(async () => {
    const entries = await gateway.store.readAudit({ count: 100 });
    return entries.map((entry) => entry.record).find((record) => record?.tool === tool);
  });
}

describe('trying a tool from the console', () => {
  let gateway: StartedGateway;
  let operator: ConsoleSession;
  const tryTool = async (tool: string, args: Record<string, unknown>) => {
    const response = await operator.post('tools/try', { tool, arguments: args });
    expect(response.status).toBe(200);
    return ((await response.json()) as { result: CallToolResult }).result;
  };

  beforeAll(async () => {
    const config = parseGatewayConfig({
      mcpServers: {
        directory: consoleUpstream(),
        archive: consoleUpstream({ toolPrefix: 'archive_' }),
      },
      toolsets: [{ name: 'ops-tools', tools: ['lookup', 'note_write', 'archive_note_write'] }],
      guardrails: { deny: { tools: ['archive_note_write'] } },
      approval: { require: ['note_write'], via: 'console', timeoutMs: 30_000 },
      profiles: {
        ops: { token: OPS, operator: true, enabledToolsets: ['ops-tools'] },
        agent: { token: AGENT },
      },
      console: { enabled: true },
    });
    gateway = await startGateway({ config, http: { port: 0, token: TOKEN } });
    await gateway.ready();
    operator = await signInConsole(gateway.url!, OPS);
  });
  afterAll(async () => {
    await gateway?.close();
  });

  it('runs the call and audits it as the console’s, naming the operator', async () => {
    const result = await tryTool('lookup', { key: 'ada' });
    expect(textOf(result)).toBe('found ada');
    expect(await audited(gateway, 'lookup')).toMatchObject({
      via: 'console',
      operator: 'profile:ops',
      profile: 'ops',
      status: 'ok',
    });
    // Without console.callDetails the trail keeps no arguments and no result.
    expect(await audited(gateway, 'lookup')).not.toHaveProperty('shownArguments');
    // The console's own session ends with the call.
    expect(gateway.server.sessions()).toEqual([]);
  });

  it('meets the same guardrail as a model’s call', async () => {
    const result = await tryTool('archive_note_write', { text: 'x' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/Denied by guardrail/);
    expect(await audited(gateway, 'archive_note_write')).toMatchObject({
      via: 'console',
      status: 'denied',
      operator: 'profile:ops',
    });
  });

  it('cannot reach a tool outside the operator’s profile, and the refusal is audited', async () => {
    const result = await tryTool('archive_lookup', { key: 'ada' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/not available in this session/);
    expect(await audited(gateway, 'archive_lookup')).toMatchObject({
      via: 'console',
      status: 'denied',
      deniedBy: { kind: 'scope' },
    });
  });

  it('waits for approval in the inbox like any call, marked as the console’s', async () => {
    const running = tryTool('note_write', { text: 'from the console' });
    const [pending] = await until(async () => {
      const list = await gateway.store.listPendingApprovals();
      return list.length > 0 && list;
    });
    expect(pending).toMatchObject({ tool: 'note_write', via: 'console' });
    const answer = await operator.post('approvals/answer', {
      id: pending!.id,
      decision: 'allow-once',
    });
    expect(answer.status).toBe(200);
    expect(textOf(await running)).toBe('noted from the console');
    expect(await audited(gateway, 'note_write')).toMatchObject({
      via: 'console',
      approval: 'allow-once',
      approvalAnswer: { by: 'profile:ops' },
    });
  });

  it('refuses a change without CSRF, without sign-in, or with a bad body', async () => {
    const url = new URL('/console/api/tools/try', gateway.url);
    const body = JSON.stringify({ tool: 'lookup', arguments: { key: 'x' } });
    const json = { 'content-type': 'application/json' };
    expect((await fetch(url, { method: 'POST', headers: json, body })).status).toBe(401);
    // An agent's token is no operator's: it never gets a cookie to send.
    const agentLogin = await fetch(new URL('/console/api/login', gateway.url), {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ token: AGENT }),
    });
    expect(agentLogin.status).toBe(401);
    const noCsrf = await fetch(url, {
      method: 'POST',
      headers: { ...json, cookie: operator.cookie },
      body,
    });
    expect(noCsrf.status).toBe(403);
    for (const bad of [{ tool: 3 }, { tool: 'lookup', arguments: [1] }, {}]) {
      expect((await operator.post('tools/try', bad)).status).toBe(400);
    }
  });

  it('switches a tool off for every route until it is switched on again', async () => {
    const client = await connectHttpClient(gateway.url!, { token: TOKEN });
    try {
      expect(textOf(await client.call('lookup', { key: 'before' }))).toBe('found before');
      const off = await operator.post('tools/switch', { key: 'directory/lookup', off: true });
      expect(off.status).toBe(200);
      expect(await gateway.store.switchedOffTools()).toEqual(new Set(['directory/lookup']));
      const refused = await until(async () => {
        const result = await client.call('lookup', { key: 'during' });
        return result.isError === true && result;
      });
      expect(textOf(refused)).toMatch(/An operator switched 'lookup' off/);
      expect(textOf(await tryTool('lookup', { key: 'during' }))).toMatch(/switched 'lookup' off/);
      const { tools } = await operator.get<{ tools: { key: string; switchedOff?: true }[] }>(
        'tools',
      );
      expect(tools.find((tool) => tool.key === 'directory/lookup')?.switchedOff).toBe(true);
      expect(
        (await operator.post('tools/switch', { key: 'directory/lookup', off: false })).status,
      ).toBe(200);
      await until(async () => !(await client.call('lookup', { key: 'after' })).isError);
      // Hostile: no CSRF changes nothing; an unknown tool or a bad body is refused.
      const noCsrf = await fetch(new URL('/console/api/tools/switch', gateway.url), {
        method: 'POST',
        headers: { cookie: operator.cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ key: 'directory/lookup', off: true }),
      });
      expect(noCsrf.status).toBe(403);
      expect(
        (await operator.post('tools/switch', { key: 'nope/<b>x</b>', off: true })).status,
      ).toBe(404);
      expect(
        (await operator.post('tools/switch', { key: 'directory/lookup', off: 'yes' })).status,
      ).toBe(400);
      expect(await gateway.store.switchedOffTools()).toEqual(new Set());
    } finally {
      await client.close();
    }
  });
});
