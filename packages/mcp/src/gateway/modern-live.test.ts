import { randomBytes } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LegacyAsker, serveLegacyAsker } from '../__fixtures__/legacy-asker.js';
import { parseGatewayConfig } from '../config/parse.js';
import { createMemoryStore } from '../store/memory-store.js';
import type { GatewayStore } from '../store/types.js';
import { createUpstreamPool, type UpstreamPool } from '../upstream/pool.js';
import { createLiveCalls } from './modern-live.js';
import { createGatewayServer, type GatewayServer } from './server.js';
import type { StatelessCallOutcome } from './stateless-session.js';
import type { GatewayActivity } from './types.js';

const textOf = (outcome: StatelessCallOutcome) =>
  'result' in outcome
    ? (outcome.result as CallToolResult).content
        .map((part) => (part.type === 'text' ? part.text : ''))
        .join('')
    : '';

describe('a 2025-era upstream that asks mid-call, serving a 2026-07-28 client', () => {
  let upstream: LegacyAsker;
  const pools: UpstreamPool[] = [];
  const gateways: GatewayServer[] = [];
  const stateKey = randomBytes(32);
  const activity: GatewayActivity[] = [];

  const startReplica = async (timeoutMs = 60_000, sampling = 'deny', store?: GatewayStore) => {
    const config = parseGatewayConfig({
      mcpServers: { old: { url: upstream.url, sampling } },
      toolSearch: { enabled: 'off' },
      approval: { timeoutMs },
    });
    const pool = createUpstreamPool(config, { reconnect: false });
    await pool.start();
    const gateway = createGatewayServer({
      pool,
      config,
      ...(store === undefined ? {} : { store }),
      onActivity: (entry) => activity.push(entry),
    });
    pools.push(pool);
    gateways.push(gateway);
    return gateway.statelessView({ principal: 'alice', stateKey });
  };
  const context = (more: Record<string, unknown> = {}) => ({
    requestId: 1,
    signal: new AbortController().signal,
    capabilities: { elicitation: { form: {} }, sampling: {} },
    ...more,
  });
  const questionOf = (outcome: StatelessCallOutcome) => {
    if (!('input' in outcome)) throw new Error(`not a question: ${JSON.stringify(outcome)}`);
    return outcome.input;
  };

  beforeAll(async () => {
    upstream = await serveLegacyAsker();
  });

  afterAll(async () => {
    await Promise.allSettled(gateways.map((gateway) => gateway.close()));
    await Promise.allSettled(pools.map((pool) => pool.close()));
    await upstream?.close();
  });

  it('holds the live call while its client is asked, round after round, and resumes it', async () => {
    const view = await startReplica();
    const first = questionOf(await view.callTool({ name: 'ask_name', arguments: {} }, context()));
    expect(first.inputRequests['elicitation']).toMatchObject({
      method: 'elicitation/create',
      params: { message: 'Your name?' },
    });
    const heard: { method: string; params?: Record<string, unknown> }[] = [];
    const second = questionOf(
      await view.callTool(
        { name: 'ask_name', arguments: {} },
        context({
          requestState: first.requestState,
          inputResponses: { elicitation: { action: 'accept', content: { name: 'Ada' } } },
          logLevel: 'info',
          notify: async (notification: (typeof heard)[number]) => {
            heard.push(notification);
          },
        }),
      ),
    );
    // The held call's log line reached the request that waited on it.
    expect(heard).toContainEqual(
      expect.objectContaining({
        method: 'notifications/message',
        params: expect.objectContaining({ data: 'heard Ada', logger: 'old' }),
      }),
    );
    expect(second.inputRequests['elicitation']?.params?.['message']).toBe('Your town?');
    const done = await view.callTool(
      { name: 'ask_name', arguments: {} },
      context({
        requestState: second.requestState,
        inputResponses: { elicitation: { action: 'accept', content: { town: 'London' } } },
      }),
    );
    expect(textOf(done)).toBe('Hello, Ada of London');
  });

  it('says so when the retry lands on a replica that does not hold the call', async () => {
    const here = await startReplica();
    const there = await startReplica();
    const asked = questionOf(await here.callTool({ name: 'ask_name', arguments: {} }, context()));
    const retry = context({
      requestState: asked.requestState,
      inputResponses: { elicitation: { action: 'accept', content: { name: 'Bo' } } },
    });
    await expect(there.callTool({ name: 'ask_name', arguments: {} }, retry)).rejects.toThrow(
      /not held by this gateway.*another one/,
    );
    // Refused unredeemed: the same retry on the replica that asked resumes the call.
    const next = questionOf(await here.callTool({ name: 'ask_name', arguments: {} }, retry));
    expect(next.inputRequests['elicitation']?.params?.['message']).toBe('Your town?');
  });

  it('refuses what the client did not declare, and sampling the policy denies', async () => {
    const view = await startReplica();
    const blind = await view.callTool(
      { name: 'ask_name', arguments: {} },
      context({ capabilities: { sampling: {} } }),
    );
    expect('result' in blind && blind.result.isError).toBe(true);
    const denied = await view.callTool({ name: 'sample', arguments: {} }, context());
    expect(textOf(denied)).toMatch(/policy denies sampling to server 'old'/);
    expect(activity).toContainEqual(
      expect.objectContaining({ kind: 'sampling', status: 'denied', sessionId: 'stateless:alice' }),
    );
  });

  it("asks the user's consent first when the server may sample only so (sampling: ask)", async () => {
    const view = await startReplica(60_000, 'ask');
    const consent = questionOf(await view.callTool({ name: 'sample', arguments: {} }, context()));
    expect(Object.keys(consent.inputRequests)).toEqual(['sampling-consent']);
    const sampling = questionOf(
      await view.callTool(
        { name: 'sample', arguments: {} },
        context({
          requestState: consent.requestState,
          inputResponses: { 'sampling-consent': { action: 'accept', content: { allow: true } } },
        }),
      ),
    );
    expect(sampling.inputRequests['sampling']?.method).toBe('sampling/createMessage');
    const done = await view.callTool(
      { name: 'sample', arguments: {} },
      context({
        requestState: sampling.requestState,
        inputResponses: {
          sampling: { role: 'assistant', content: { type: 'text', text: 'yo' }, model: 'm' },
        },
      }),
    );
    expect(textOf(done)).toBe('sampled: {"type":"text","text":"yo"}');
  });

  it('cancels a held call upstream when its client does not answer in time', async () => {
    const view = await startReplica(200);
    const asked = questionOf(await view.callTool({ name: 'slow_ask', arguments: {} }, context()));
    await new Promise((resolve) => setTimeout(resolve, 600));
    await expect(
      view.callTool(
        { name: 'slow_ask', arguments: {} },
        context({ requestState: asked.requestState, inputResponses: {} }),
      ),
    ).rejects.toThrow(/expired|not held/);
    // The hold's deadline cancelled the call upstream.
    for (let tries = 0; tries < 50 && !upstream.cancelled.includes('slow_ask'); tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(upstream.cancelled).toContain('slow_ask');
  });

  it('cancels a held call upstream when its answer cannot be redeemed (the store fails)', async () => {
    const memory = createMemoryStore();
    let failing = false;
    const store: GatewayStore = {
      ...memory,
      claimOnce: async (key, ttlMs) => {
        if (failing) throw new Error('the store is down');
        return memory.claimOnce!(key, ttlMs);
      },
    };
    const view = await startReplica(60_000, 'deny', store);
    const before = upstream.cancelled.length;
    const asked = questionOf(await view.callTool({ name: 'slow_ask', arguments: {} }, context()));
    failing = true;
    await expect(
      view.callTool(
        { name: 'slow_ask', arguments: {} },
        context({ requestState: asked.requestState, inputResponses: {} }),
      ),
    ).rejects.toThrow(/the store is down/);
    for (let tries = 0; tries < 50 && upstream.cancelled.length === before; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(upstream.cancelled.slice(before)).toEqual(['slow_ask']);
  });

  it('refuses a retry that names another call, and cancels the held one', async () => {
    const view = await startReplica();
    const asked = questionOf(await view.callTool({ name: 'ask_name', arguments: {} }, context()));
    const other = await view.callTool(
      { name: 'ask_name', arguments: { extra: 1 } },
      context({
        requestState: asked.requestState,
        inputResponses: { elicitation: { action: 'accept', content: { name: 'Cy' } } },
      }),
    );
    expect(textOf(other)).toMatch(/another call/);
  });

  it('holds a bounded number of calls, each for its own principal', () => {
    const calls = createLiveCalls({ timeoutMs: 60_000, max: 1 });
    const open = () =>
      calls.open({
        principal: 'alice',
        capabilities: {},
        sessionId: 'stateless:alice',
        target: { t: 'x', h: 'y' },
      });
    const first = open();
    const second = open();
    const nonce = calls.hold(first, 'alice');
    expect(nonce).toBeDefined();
    expect(calls.hold(second, 'alice')).toBeUndefined();
    expect(() => calls.take(nonce!, 'bob')).toThrow(/not held by this gateway/);
    expect(calls.take(nonce!, 'alice')).toBe(first);
    expect(() => calls.take(nonce!, 'alice')).toThrow(/not held by this gateway/);
    calls.close();
  });

  it('keeps an eighth of the places per credential, so one cannot starve the others', () => {
    const calls = createLiveCalls({ timeoutMs: 60_000, max: 16 });
    const open = (principal: string) =>
      calls.open({
        principal,
        capabilities: {},
        sessionId: `stateless:${principal}`,
        target: { t: 'x', h: 'y' },
      });
    const mallory = Array.from({ length: 5 }, () => calls.hold(open('mallory'), 'mallory'));
    expect(mallory.filter((nonce) => nonce !== undefined)).toHaveLength(2);
    expect(calls.hold(open('alice'), 'alice')).toBeDefined();
    calls.close();
  });
});
