import { parseGatewayConfig } from '@tool-search/mcp/config';
import type { ConsoleActivity } from '@tool-search/mcp-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttpClient, type TestClient, until } from '../__fixtures__/clients.js';
import { consoleUpstream, signInConsole } from '../__fixtures__/console.js';
import { type StartedGateway, startGateway } from '../start.js';

const TOKEN = 'console-activity-token-0123456789';
const OPS = 'console-activity-ops-0123456789ab';

describe('the console’s activity', () => {
  let gateway: StartedGateway;
  let client: TestClient;

  beforeAll(async () => {
    const config = parseGatewayConfig({
      mcpServers: { directory: consoleUpstream() },
      approval: { require: ['note_write'], via: 'console', timeoutMs: 30_000 },
      profiles: { ops: { token: OPS, operator: true } },
      console: { enabled: true, callDetails: true },
    });
    gateway = await startGateway({ config, http: { port: 0, token: TOKEN } });
    await gateway.ready();
    client = await connectHttpClient(gateway.url!, { token: TOKEN });
  });
  afterAll(async () => {
    await client?.close();
    await gateway?.close();
  });

  it('shows a call the upstream answered as an error (isError) as failed, with its text', async () => {
    await client.call('lookup', { key: 'missing' });
    await client.call('lookup', { key: 'ada' });
    const operator = await signInConsole(gateway.url!, TOKEN);
    const calls = await until(async () => {
      const { activity } = await operator.get<{ activity: ConsoleActivity[] }>('activity');
      const lines = activity.filter((line) => line.kind === 'call' && line.tool === 'lookup');
      return lines.length === 2 && lines;
    });
    expect(calls.map(({ status, detail }) => ({ status, detail }))).toEqual([
      { status: 'tool_error', detail: 'no entry <b>missing</b>' },
      { status: 'ok', detail: undefined },
    ]);
  });

  it('says who approved or denied a call, when, and the wait apart from the rest', async () => {
    const operator = await signInConsole(gateway.url!, OPS);
    const waiting = client.call('note_write', { text: 'approve me' });
    const [pending] = await until(async () => {
      const { approvals } = await operator.get<{ approvals: { id: string }[] }>('approvals');
      return approvals.length > 0 && approvals;
    });
    const answered = await operator.post('approvals/answer', {
      id: pending!.id,
      decision: 'allow-once',
    });
    expect(answered.status).toBe(200);
    await waiting;
    const line = await until(async () => {
      const { activity } = await operator.get<{ activity: ConsoleActivity[] }>('activity');
      return activity.find((item) => item.tool === 'note_write');
    });
    expect(line.approval).toMatchObject({ decision: 'allow-once', by: 'profile:ops' });
    expect(Date.parse(line.approval!.at!)).not.toBeNaN();
    expect(line.approval!.waitMs).toBeLessThanOrEqual(line.durationMs + 1);
  });

  it('keeps the arguments as they ran and the start of the result, escaped, with callDetails', async () => {
    await client.call('lookup', { key: 'ada\u202e<b>' });
    const operator = await signInConsole(gateway.url!, OPS);
    const line = await until(async () => {
      const { activity } = await operator.get<{ activity: ConsoleActivity[] }>('activity');
      return activity.find((item) => item.arguments?.includes('202e'));
    });
    // A bidi control shows as its escape, never as itself.
    expect(line.arguments).toContain('ada\\u202e<b>');
    expect(line.arguments).not.toContain('\u202e');
    expect(line.result).toBe('found ada\\u202e<b>');
  });
});
