import { parseGatewayConfig } from '@tool-search/mcp/config';
import type { ConsoleActivity } from '@tool-search/mcp-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttpClient, type TestClient, until } from '../__fixtures__/clients.js';
import { consoleUpstream, signInConsole } from '../__fixtures__/console.js';
import { type StartedGateway, startGateway } from '../start.js';

const TOKEN = 'console-activity-token-0123456789';

describe('the console’s activity', () => {
  let gateway: StartedGateway;
  let client: TestClient;

  beforeAll(async () => {
    const config = parseGatewayConfig({
      mcpServers: { directory: consoleUpstream() },
      console: { enabled: true },
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
});
