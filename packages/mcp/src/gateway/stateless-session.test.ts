import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../__fixtures__/gateway.js';
import { createUpstreamPool } from '../upstream/pool.js';
import { createGatewayServer } from './server.js';

describe('GatewayServer.statelessView', () => {
  let setup: TestGateway;

  beforeAll(async () => {
    setup = await startTestGateway();
  }, 30_000);

  afterAll(async () => {
    await setup?.close();
  });

  const context = () => ({ requestId: 1, signal: new AbortController().signal });

  it('lists the same tools for a credential on two gateways over the same pool, whatever came before', async () => {
    const other = createGatewayServer({
      pool: setup.pool,
      config: setup.config,
      contextWindow: 32_000,
    });
    try {
      const first = setup.gateway.statelessView({ profile: 'files', principal: 'profile:files' });
      await first.callTool(
        { name: 'tool_search', arguments: { query: 'write a file' } },
        context(),
      );
      const listed = await first.listTools();
      const second = await other
        .statelessView({ profile: 'files', principal: 'profile:files' })
        .listTools();
      expect(second).toEqual(listed);
      expect(listed.cacheScope).toBe('private');
      const names = listed.tools.map((tool) => tool.name);
      expect(names).toContain('read_text_file');
      expect(names.filter((name) => !name.startsWith('tool_'))).toEqual(
        [...names.filter((name) => !name.startsWith('tool_'))].sort(),
      );
    } finally {
      await other.close();
    }
  });

  it('searches and calls by the real name, the call in the audit trail of the credential', async () => {
    const view = setup.gateway.statelessView({ principal: 'someone' });
    const found = await view.callTool(
      { name: 'tool_search', arguments: { query: 'echo a message back' } },
      context(),
    );
    expect('result' in found && JSON.stringify(found.result)).toContain('echo');
    const called = await view.callTool(
      { name: 'tool_call', arguments: { name: 'everything_echo', arguments: { message: 'hi' } } },
      context(),
    );
    expect('result' in called && JSON.stringify(called.result)).toContain('hi');
    const entries = await setup.gateway.store.readAudit({ count: 1000 });
    expect(
      entries.some(
        (entry) =>
          entry.record?.sessionId === 'stateless:someone' &&
          entry.record.tool === 'everything_echo',
      ),
    ).toBe(true);
  });

  it('refuses an unknown profile and a credentialAllowMs that is not a positive integer', () => {
    expect(() => setup.gateway.statelessView({ profile: 'nobody' })).toThrow(/Unknown profile/);
    const pool = createUpstreamPool({ mcpServers: {} });
    expect(() => createGatewayServer({ pool, credentialAllowMs: 0 })).toThrow(/credentialAllowMs/);
  });
});
