import { parseGatewayConfig } from '@tool-search/mcp/config';
import { startRedis, type TestRedis } from '@tool-search/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LegacyAsker, serveLegacyAsker } from '../../mcp/src/__fixtures__/legacy-asker.js';
import {
  type ModernUpstream,
  serveModernUpstream,
} from '../../mcp/src/__fixtures__/modern-upstream.js';
import { postModern } from './__fixtures__/modern-wire.js';
import { startReplicas } from './__fixtures__/replicas.js';
import type { StartedGateway } from './start.js';

const TOKEN = 'relay-replica-token-0123456789ab';

type Json = Record<string, unknown>;

/** One modern `tools/call` to the replica at `url`. */
const callOn = (url: string, id: number, params: Json) =>
  postModern(url, TOKEN, 'tools/call', params, id);

describe("an upstream's question relayed to a 2026 client across replicas", () => {
  let redis: TestRedis;
  let upstream: ModernUpstream;
  let legacy: LegacyAsker;
  const replicas: StartedGateway[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    upstream = await serveModernUpstream();
    legacy = await serveLegacyAsker();
    const config = parseGatewayConfig({
      mcpServers: { up: { url: upstream.url }, old: { url: legacy.url } },
      toolSearch: { enabled: 'off' },
    });
    replicas.push(...(await startReplicas({ config, store: redis.url, token: TOKEN })));
  }, 60_000);

  afterAll(async () => {
    await Promise.allSettled(replicas.map((replica) => replica.close()));
    await upstream?.close();
    await legacy?.close();
    await redis?.stop();
  });

  it('is asked on one replica and answered on the other, once', async () => {
    const [a, b] = replicas.map((replica) => replica.url!) as [string, string];
    const asked = (await callOn(a, 1, { name: 'confirm', arguments: { action: 'ship' } }))[
      'result'
    ] as Json;
    expect(asked['resultType']).toBe('input_required');
    const requestState = asked['requestState'] as string;
    const answer = { ok: { action: 'accept', content: { ok: true } } };
    const retry = {
      name: 'confirm',
      arguments: { action: 'ship' },
      requestState,
      inputResponses: answer,
    };
    const done = (await callOn(b, 2, retry))['result'] as Json;
    expect(done['content']).toEqual([{ type: 'text', text: 'done: ship' }]);
    expect(upstream.answered.at(-1)).toEqual({
      tool: 'confirm',
      keys: ['ok'],
      requestState: 'state-of-ship',
    });
    const replayed = await callOn(a, 3, retry);
    expect(replayed['id']).toBe(3);
    expect((replayed['error'] as { code: number; message: string }).message).toMatch(
      /already used/,
    );
    expect(
      upstream.answered.filter((entry) => entry.requestState === 'state-of-ship'),
    ).toHaveLength(1);
  });

  it("refuses, saying why, a retry of a 2025-era server's live question on another replica; the replica that asked resumes it", async () => {
    const [a, b] = replicas.map((replica) => replica.url!) as [string, string];
    const asked = (await callOn(a, 4, { name: 'ask_name', arguments: {} }))['result'] as Json;
    expect(asked['resultType']).toBe('input_required');
    const requestState = asked['requestState'] as string;
    const answer = { elicitation: { action: 'accept', content: { name: 'Ada' } } };
    const elsewhere = await callOn(b, 5, {
      name: 'ask_name',
      arguments: {},
      requestState,
      inputResponses: answer,
    });
    expect(elsewhere['id']).toBe(5);
    const error = elsewhere['error'] as { code: number; message: string };
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(/waits on the replica that asked/);
    // Refused unredeemed: the same retry on the replica that asked resumes the call.
    const next = (
      await callOn(a, 6, { name: 'ask_name', arguments: {}, requestState, inputResponses: answer })
    )['result'] as Json;
    expect(next['resultType']).toBe('input_required');
    const done = (
      await callOn(a, 7, {
        name: 'ask_name',
        arguments: {},
        requestState: next['requestState'],
        inputResponses: { elicitation: { action: 'accept', content: { town: 'Leeds' } } },
      })
    )['result'] as Json;
    expect(done['content']).toEqual([{ type: 'text', text: 'Hello, Ada of Leeds' }]);
  });
});
