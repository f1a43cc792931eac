import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  createGatewayServer,
  createUpstreamPool,
  SHUTTING_DOWN_ERROR_CODE,
  type UpstreamPool,
} from '@tool-search/mcp';
import { type GatewayConfig, parseGatewayConfig } from '@tool-search/mcp/config';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingInProcess, hangInProcess } from '../../mcp/src/__fixtures__/in-process.js';
import { connectHttpClient, textOf } from './__fixtures__/clients.js';
import { listenGatewayHttp } from './http/http.js';

describe('GatewayServer.close({ graceMs })', () => {
  let pool: UpstreamPool;
  let config: GatewayConfig;

  beforeAll(async () => {
    config = parseGatewayConfig({
      mcpServers: { hang: hangInProcess(), everything: everythingInProcess() },
      toolSearch: { enabled: 'off' },
    });
    pool = createUpstreamPool(config);
    await pool.start();
  }, 30_000);

  afterAll(async () => {
    await pool?.close();
  });

  it('answers every call in flight over HTTP: a result within the grace, else a shutdown error', async () => {
    const gateway = createGatewayServer({ pool, config });
    const listener = await listenGatewayHttp(gateway);
    const [waiting, working] = await Promise.all([
      connectHttpClient(listener.url),
      connectHttpClient(listener.url, { listen: false }),
    ]);
    // The client would wait a minute on its own.
    const hanging = waiting.client
      .request(
        { method: 'tools/call', params: { name: 'hang', arguments: {} } },
        CallToolResultSchema,
        { timeout: 60_000 },
      )
      .then(
        () => ({ error: undefined }),
        (error: { code?: number; message?: string }) => ({ error }),
      );
    const finishing = working.client.request(
      {
        method: 'tools/call',
        params: {
          name: 'trigger-long-running-operation',
          arguments: { duration: 1, steps: 2 },
        },
      },
      CallToolResultSchema,
      { timeout: 60_000 },
    );
    // Both calls reach the upstreams before the shutdown begins.
    await new Promise((resolve) => setTimeout(resolve, 300));

    const closing = gateway.close({ graceMs: 4_000 });
    // New sessions are refused at once: the port is closed.
    await expect(connectHttpClient(listener.url)).rejects.toThrow();

    const [hung, finished, report] = await Promise.all([hanging, finishing, closing]);
    expect(hung.error).toMatchObject({
      code: SHUTTING_DOWN_ERROR_CODE,
      message: expect.stringContaining('The gateway is shutting down'),
    });
    expect(hung.error?.message).toContain('grace period');
    expect(finished.isError).not.toBe(true);
    expect(textOf(finished)).toContain('Long running operation completed');
    expect(report).toEqual({ finished: 1, interrupted: 1 });
    expect(gateway.sessions()).toEqual([]);
    // The upstream saw the hanging call cancelled.
    const count = await pool.callTool('cancelled_count', {});
    expect(Number(textOf(count))).toBeGreaterThanOrEqual(1);
    await Promise.all([waiting.close(), working.close()]);
  }, 30_000);

  it('answers a call in flight at once without a grace period', async () => {
    const gateway = createGatewayServer({ pool, config });
    const listener = await listenGatewayHttp(gateway);
    const client = await connectHttpClient(listener.url);
    const hanging = client.client
      .request(
        { method: 'tools/call', params: { name: 'hang', arguments: {} } },
        CallToolResultSchema,
        { timeout: 60_000 },
      )
      .catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await gateway.close();
    expect(await hanging).toMatchObject({ code: SHUTTING_DOWN_ERROR_CODE });
    await client.close();
  }, 30_000);
});
