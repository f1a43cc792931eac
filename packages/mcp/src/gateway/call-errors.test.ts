import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ToolCallHook } from '@tool-search/hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, type TestClient, textOf } from '../__fixtures__/clients.js';
import { hangInProcess } from '../__fixtures__/in-process.js';
import { parseGatewayConfig } from '../config/parse.js';
import { createUpstreamPool, type UpstreamPool } from '../upstream/pool.js';
import { createGatewayServer, type GatewayServer } from './server.js';

/** A hook that breaks what the gateway must serialise, as a buggy hook might. */
const unserialisable: ToolCallHook = {
  name: 'unserialisable',
  beforeCall(call) {
    if (call.arguments['mode'] !== 'bigint-arguments') return undefined;
    return { call: { ...call, arguments: { count: 10n } } };
  },
  afterCall(call) {
    const mode = call.arguments['mode'];
    if (mode === 'bigint-result') {
      return { result: { content: [{ type: 'text', text: 'ok' }], _meta: { count: 10n } } };
    }
    if (mode === 'cycle') {
      const cyclic: Record<string, unknown> = { note: 'not a tool result' };
      cyclic['self'] = cyclic;
      return { result: cyclic };
    }
    return undefined;
  },
};

describe('the gateway answers calls it cannot carry out', () => {
  let pool: UpstreamPool;
  let gateway: GatewayServer;
  let client: TestClient;

  beforeAll(async () => {
    const config = parseGatewayConfig({
      mcpServers: { hang: hangInProcess() },
      toolSearch: { enabled: 'on' },
    });
    pool = createUpstreamPool(config);
    await pool.start();
    gateway = createGatewayServer({ pool, config, hooks: [unserialisable] });
    client = await connectClient(gateway);
  }, 30_000);

  afterAll(async () => {
    await client?.close();
    await gateway?.close();
    await pool?.close();
  });

  const call = (name: string, args: unknown) =>
    client.client.request(
      { method: 'tools/call', params: { name, arguments: args as Record<string, unknown> } },
      CallToolResultSchema,
      { timeout: 15_000 },
    );

  it("reports a result it cannot serialise as the gateway's failure, not the upstream's", async () => {
    for (const mode of ['bigint-result', 'cycle']) {
      const result = await call('cancelled_count', { mode });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain(
        "The gateway could not serialise the result of 'cancelled_count'",
      );
      expect(textOf(result)).toContain('not in the upstream server');
      expect(result._meta?.['tool-search/error']).toBe('gateway_failed');
    }
  }, 40_000);

  it("reports arguments it cannot serialise as the gateway's failure, and sends nothing", async () => {
    const result = await call('cancelled_count', { mode: 'bigint-arguments' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(
      "The gateway could not serialise the arguments of 'cancelled_count'",
    );
    expect(textOf(result)).not.toContain("Server 'hang' failed");
    expect(result._meta?.['tool-search/error']).toBe('invalid_argument');
  });

  it('answers arguments that are not an object with -32602 Invalid params', async () => {
    for (const args of ['a string', [1, 2], 42]) {
      await expect(call('cancelled_count', args)).rejects.toMatchObject({ code: -32602 });
    }
    // The session is fine afterwards.
    expect(textOf(await call('cancelled_count', {}))).toBe('0');
  });

  it('cuts a 1 MB tool name in every answer that echoes it', async () => {
    const huge = `x${'y'.repeat(1_000_000)}`;
    const answers = [
      await call(huge, {}),
      await call('tool_call', { name: huge, arguments: {} }),
      await call('tool_describe', { name: huge }),
      await call('tool_call', { name: 'tool_search', arguments: {} }),
    ];
    for (const answer of answers.slice(0, 3)) {
      const text = JSON.stringify(answer);
      expect(answer.isError).toBe(true);
      expect(text.length).toBeLessThan(2_000);
      expect(text).toContain(`x${'y'.repeat(199)}…(999801 more characters)`);
    }
    // A short name is echoed whole, in the exact DESIGN text.
    expect(textOf(answers[3]!)).toContain(
      "tool_call cannot invoke 'tool_search' (it is itself a bridge tool)",
    );
  }, 30_000);

  it("cuts a long name in the pool's own message", async () => {
    const result = await pool.callTool('z'.repeat(100_000), {});
    expect(textOf(result)).toContain(`'${'z'.repeat(200)}…(99800 more characters)'`);
    expect(textOf(result).length).toBeLessThan(1_000);
  });
});
