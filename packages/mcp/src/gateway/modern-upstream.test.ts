import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, type TestClient, textOf } from '../__fixtures__/clients.js';
import { type ModernUpstream, serveModernUpstream } from '../__fixtures__/modern-upstream.js';
import { parseGatewayConfig } from '../config/parse.js';
import { createUpstreamPool, type UpstreamPool } from '../upstream/pool.js';
import { createGatewayServer } from './server.js';

// The proof, end to end in this process: a real upstream that refuses the 2025
// handshake (`legacy: 'reject'`) is searched and called by a client of the gateway.
describe('the gateway over an upstream that speaks only 2026-07-28', () => {
  let upstream: ModernUpstream;
  let pool: UpstreamPool;
  let client: TestClient;
  let config: ReturnType<typeof parseGatewayConfig>;
  beforeAll(async () => {
    upstream = await serveModernUpstream();
    // Search on for every tool, however few (`enabled: true`).
    config = parseGatewayConfig({
      mcpServers: { modern: { url: upstream.url } },
      toolSearch: { enabled: true },
    });
    pool = createUpstreamPool(config, { connectTimeoutMs: 20_000 });
    await pool.start();
    client = await connectClient(createGatewayServer({ pool, config }));
  });
  afterAll(async () => {
    await client.close();
    await pool.close();
    await upstream.close();
  });

  it('finds its tools by search and calls them through tool_call', async () => {
    const answer = await client.bridge('tool_search', { query: 'look an item up in a region' });
    const matches = answer['matches'] as { name: string; source_name: string }[];
    expect(matches[0]).toMatchObject({ name: 'regional', source_name: 'mcp-modern' });
    const result = (await client.call('tool_call', {
      name: 'regional',
      arguments: { region: 'ap-south', item: 'queue' },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe('queue in ap-south');
    const call = upstream.requests.filter((request) => request.method === 'tools/call').at(-1);
    expect(call?.headers['mcp-param-region']).toBe('ap-south');
  });

  it('answers a call of a tool that needs input at once, saying what it wanted', async () => {
    const result = (await client.call('tool_call', {
      name: 'confirm',
      arguments: { action: 'wipe' },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    // The question goes to the client of the call, which cannot answer it (it declared no
    // elicitation): the call ends at once with what the upstream wanted and why.
    expect(textOf(result)).toContain("Server 'modern'");
    expect(textOf(result)).toContain('elicitation/create');
    expect(textOf(result)).toContain('does not support elicitation/create');
  });

  it("relays the upstream's input_required to the client of the call and sends its answer back", async () => {
    const asked: string[] = [];
    const gateway = createGatewayServer({ pool, config });
    const answering = async (ok: boolean) =>
      connectClient(gateway, {
        elicit: (params) => {
          asked.push(params.message);
          return { action: 'accept', content: { ok } };
        },
      });
    const yes = await answering(true);
    const no = await answering(false);
    try {
      const done = (await yes.call('tool_call', {
        name: 'confirm',
        arguments: { action: 'deploy' },
      })) as CallToolResult;
      expect(textOf(done)).toBe('done: deploy');
      const declined = (await no.call('tool_call', {
        name: 'confirm',
        arguments: { action: 'wipe' },
      })) as CallToolResult;
      expect(declined.isError).toBe(true);
      expect(textOf(declined)).toBe('declined: wipe');
      expect(asked).toEqual(['Run deploy?', 'Run wipe?']);
    } finally {
      await yes.close();
      await no.close();
    }
  });
});
