import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessServer } from '../__fixtures__/in-process.js';
import { parseGatewayConfig } from '../config/parse.js';
import type { JsonObject } from '../upstream/features/feature-client.js';
import { createUpstreamPool, type UpstreamPool } from '../upstream/pool.js';
import { createGatewayServer, type GatewayServer } from './server.js';
import { statelessLogRelay } from './stateless-features.js';

/** An upstream with `count` resources `many://<n>`. */
function manyResources(count: number) {
  return inProcessServer(() => {
    const server = new McpServer(
      { name: 'many', version: '1.0.0' },
      { capabilities: { resources: { listChanged: true } } },
    );
    server.registerTool('noop', { inputSchema: {} }, () => ({ content: [] }));
    for (let index = 0; index < count; index += 1) {
      server.registerResource(`r${index}`, `many://${index}`, {}, (uri) => ({
        contents: [{ uri: uri.href, text: String(index) }],
      }));
    }
    return server;
  });
}

describe('the stateless features of a credential', () => {
  let pool: UpstreamPool;
  const gateways: GatewayServer[] = [];

  beforeAll(async () => {
    const config = parseGatewayConfig({
      mcpServers: { many: manyResources(150) },
      toolSearch: { enabled: 'off' },
    });
    pool = createUpstreamPool(config, { reconnect: false });
    await pool.start();
    for (let replica = 0; replica < 2; replica += 1) {
      gateways.push(createGatewayServer({ pool, config }));
    }
  });

  afterAll(async () => {
    for (const gateway of gateways) await gateway.close();
    await pool?.close();
  });

  it('pages a list so that another replica answers the next page', async () => {
    const [a, b] = gateways.map((gateway) => gateway.statelessView().features!);
    const first = await a!.listResources();
    expect(typeof first['nextCursor']).toBe('string');
    const second = await b!.listResources(first['nextCursor']);
    expect(second['nextCursor']).toBeUndefined();
    const uris = [
      ...(first['resources'] as JsonObject[]),
      ...(second['resources'] as JsonObject[]),
    ].map((resource) => resource['uri']);
    expect(uris).toEqual(Array.from({ length: 150 }, (_, index) => `many://${index}`));
    expect(a!.cacheScope).toBe('public');
  });

  it('declares what the servers behind it offer', async () => {
    const capabilities = await gateways[0]!.statelessView().features!.capabilities();
    expect(capabilities).toEqual({ resources: { listChanged: true }, completions: {} });
  });

  it('sends a call its logs only at or above the level the request named', () => {
    const sent: unknown[] = [];
    const notify = async (notification: unknown) => {
      sent.push(notification);
    };
    const line = (level: string) => ({ level, data: level, logger: 'many' });
    const silent = statelessLogRelay('stateless:x', undefined, notify);
    silent.log(line('error'));
    expect(sent).toEqual([]);
    const warning = statelessLogRelay('stateless:x', 'warning', notify);
    for (const level of ['debug', 'info', 'warning', 'error']) warning.log(line(level));
    expect(sent).toEqual([
      { method: 'notifications/message', params: line('warning') },
      { method: 'notifications/message', params: line('error') },
    ]);
    expect(warning.supports('elicitation/create', {})).toBe(false);
  });
});
