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
  beforeAll(async () => {
    upstream = await serveModernUpstream();
    // Search on for every tool, however few (`enabled: true`).
    const config = parseGatewayConfig({
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
    // The gateway declares no elicitation upstream (no handler is plugged in yet), so the
    // upstream says what it could not ask; with one, the pool's seam relays the question.
    expect(textOf(result)).toContain("Server 'modern'");
    expect(textOf(result)).toContain('elicitation/create');
  });
});
