import type { GatewayActivity } from '@tool-search/mcp';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type ModernUpstream,
  serveModernUpstream,
} from '../../../mcp/src/__fixtures__/modern-upstream.js';
import { type HttpGateway, startHttpGateway } from '../__fixtures__/http-gateway.js';

const MODERN = '2026-07-28';
const TOKEN = 'relay-admin-token-0123456789abcdef';
const OTHER_TOKEN = 'relay-other-token-0123456789abcdef';

type Json = Record<string, unknown>;
type Outcome = {
  status: number;
  json: Json;
  result: Json;
  error?: { code: number; message: string };
};

const yes = { action: 'accept', content: { ok: true } };

describe("an upstream's input_required, relayed to a 2026-07-28 client", () => {
  let upstream: ModernUpstream;
  let gateway: HttpGateway;
  let nextId = 1;
  const activity: GatewayActivity[] = [];

  beforeAll(async () => {
    upstream = await serveModernUpstream({ askingPrompt: true });
    gateway = await startHttpGateway(
      {
        mcpServers: { up: { url: upstream.url, sampling: 'ask' } },
        toolSearch: { enabled: 'off' },
        profiles: { other: { enabledToolsets: ['mcp-up'], token: OTHER_TOKEN } },
        approval: { require: ['collide'], fallback: 'deny' },
      },
      TOKEN,
      { onActivity: (entry) => activity.push(entry) },
    );
  }, 30_000);

  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  /** A modern `tools/call`, raw on the wire. */
  const call = async (
    name: string,
    options: {
      arguments?: Json;
      requestState?: string;
      inputResponses?: Json;
      capabilities?: Json;
      token?: string;
      method?: string;
    } = {},
  ): Promise<Outcome> => {
    const id = nextId++;
    const method = options.method ?? 'tools/call';
    const params: Json = {
      name,
      ...(method === 'tools/call' ? { arguments: options.arguments ?? {} } : {}),
      _meta: {
        'io.modelcontextprotocol/protocolVersion': MODERN,
        'io.modelcontextprotocol/clientCapabilities': options.capabilities ?? {
          elicitation: { form: {} },
          sampling: {},
          roots: {},
        },
      },
      ...(options.requestState === undefined ? {} : { requestState: options.requestState }),
      ...(options.inputResponses === undefined ? {} : { inputResponses: options.inputResponses }),
    };
    const response = await fetch(gateway.listener.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${options.token ?? TOKEN}`,
        'mcp-protocol-version': MODERN,
        'mcp-method': method,
        'mcp-name': name,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
    });
    const text = await response.text();
    const data = text.startsWith('{')
      ? text
      : (text
          .split('\n')
          .find((line) => line.startsWith('data: '))
          ?.slice(6) ?? '{}');
    const json = JSON.parse(data) as Json;
    expect(json['id']).toBe(id);
    const error = json['error'] as Outcome['error'];
    return {
      status: response.status,
      json,
      result: (json['result'] ?? {}) as Json,
      ...(error === undefined ? {} : { error }),
    };
  };
  const textOf = (result: Json) =>
    ((result['content'] as { text?: string }[] | undefined) ?? [])
      .map((part) => part.text)
      .join('');
  const questionOf = (outcome: Outcome) => {
    expect(outcome.result['resultType']).toBe('input_required');
    return {
      requests: outcome.result['inputRequests'] as Record<string, { method: string }>,
      state: outcome.result['requestState'] as string,
    };
  };

  it("passes the upstream's question on with the gateway's state; the answer resumes the call", async () => {
    const first = questionOf(await call('confirm', { arguments: { action: 'deploy' } }));
    expect(Object.keys(first.requests)).toEqual(['ok']);
    expect(first.requests['ok']?.method).toBe('elicitation/create');
    // Our state, not the upstream's: the upstream's rides inside it, signed.
    expect(first.state).not.toBe('state-of-deploy');
    expect(first.state.split('.')).toHaveLength(2);
    const done = await call('confirm', {
      arguments: { action: 'deploy' },
      requestState: first.state,
      inputResponses: { ok: yes },
    });
    expect(done.result['resultType']).toBe('complete');
    expect(textOf(done.result)).toBe('done: deploy');
    expect(upstream.answered.at(-1)).toEqual({
      tool: 'confirm',
      keys: ['ok'],
      requestState: 'state-of-deploy',
    });
    // The relay is in the credential's activity feed (and audit trail), as a session's is.
    expect(activity).toContainEqual(
      expect.objectContaining({
        kind: 'elicitation',
        name: 'elicitation/create',
        status: 'ok',
        sessionId: expect.stringMatching(/^stateless:/),
      }),
    );
  });

  it("refuses a replayed, tampered, expired or another credential's state with -32602, the id kept", async () => {
    const first = questionOf(await call('confirm', { arguments: { action: 'replay' } }));
    await call('confirm', {
      arguments: { action: 'replay' },
      requestState: first.state,
      inputResponses: { ok: yes },
    });
    const replayed = await call('confirm', {
      arguments: { action: 'replay' },
      requestState: first.state,
      inputResponses: { ok: yes },
    });
    expect(replayed.error?.code).toBe(-32602);
    expect(replayed.error?.message).toMatch(/already used/);

    const second = questionOf(await call('confirm', { arguments: { action: 'tamper' } }));
    const [body, mac] = second.state.split('.') as [string, string];
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Json;
    const forged = `${Buffer.from(JSON.stringify({ ...payload, r: 0 })).toString('base64url')}.${mac}`;
    for (const requestState of [`${second.state}-TAMPERED`, forged, 'garbage']) {
      const tampered = await call('confirm', {
        arguments: { action: 'tamper' },
        requestState,
        inputResponses: { ok: yes },
      });
      expect(tampered.error?.code).toBe(-32602);
    }

    const foreign = await call('confirm', {
      arguments: { action: 'tamper' },
      requestState: second.state,
      inputResponses: { ok: yes },
      token: OTHER_TOKEN,
    });
    expect(foreign.error?.code).toBe(-32602);
    expect(foreign.error?.message).toMatch(/another client/);

    const third = questionOf(await call('confirm', { arguments: { action: 'late' } }));
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 24 * 60 * 60 * 1000);
    const expired = await call('confirm', {
      arguments: { action: 'late' },
      requestState: third.state,
      inputResponses: { ok: yes },
    });
    expect(expired.error?.code).toBe(-32602);
    expect(expired.error?.message).toMatch(/expired/);
    expect(upstream.answered.filter((entry) => entry.requestState === 'state-of-late')).toEqual([]);
  });

  it('runs nothing upstream when the retry changes the arguments', async () => {
    const first = questionOf(await call('confirm', { arguments: { action: 'safe' } }));
    const before = upstream.answered.length;
    const altered = await call('confirm', {
      arguments: { action: 'wipe' },
      requestState: first.state,
      inputResponses: { ok: yes },
    });
    expect(altered.result['isError']).toBe(true);
    expect(textOf(altered.result)).toMatch(/not the one the answers were given for/);
    expect(upstream.answered.length).toBe(before);
  });

  it('passes on only the answers to keys that were asked', async () => {
    const first = questionOf(await call('confirm', { arguments: { action: 'keys' } }));
    await call('confirm', {
      arguments: { action: 'keys' },
      requestState: first.state,
      inputResponses: { ok: yes, approval: yes, injected: yes },
    });
    expect(upstream.answered.at(-1)?.keys).toEqual(['ok']);
  });

  it("asks the gateway's approval first, then passes on an upstream key that collides with it", async () => {
    const approval = questionOf(await call('collide'));
    expect(Object.keys(approval.requests)).toEqual(['approval']);
    const before = upstream.answered.length;
    const relayed = questionOf(
      await call('collide', {
        requestState: approval.state,
        inputResponses: { approval: { action: 'accept', content: { decision: 'allow-once' } } },
      }),
    );
    // Nothing ran upstream before the approval; now the upstream's own "approval" key is prefixed.
    expect(Object.keys(relayed.requests)).toEqual(['upstream:approval']);
    const done = await call('collide', {
      requestState: relayed.state,
      inputResponses: { 'upstream:approval': yes, approval: yes },
    });
    // The approval given covers the call's rounds: it is not asked again.
    expect(textOf(done.result)).toBe('answered: approval');
    expect(upstream.answered.slice(before)).toEqual([
      { tool: 'collide', keys: ['approval'], requestState: undefined },
    ]);
  });

  it('asks the user before a server samples (sampling: ask), then relays the sampling request', async () => {
    const consent = questionOf(await call('sample'));
    expect(Object.keys(consent.requests)).toEqual(['sampling-consent']);
    const relayed = questionOf(
      await call('sample', {
        requestState: consent.state,
        inputResponses: { 'sampling-consent': { action: 'accept', content: { allow: true } } },
      }),
    );
    expect(relayed.requests['capital']?.method).toBe('sampling/createMessage');
    const done = await call('sample', {
      requestState: relayed.state,
      inputResponses: {
        capital: { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'm' },
      },
    });
    expect(textOf(done.result)).toBe('sampled: Paris');

    const refused = questionOf(await call('sample'));
    const declined = await call('sample', {
      requestState: refused.state,
      inputResponses: { 'sampling-consent': { action: 'decline' } },
    });
    expect(declined.result['isError']).toBe(true);
    expect(textOf(declined.result)).toMatch(/did not allow server 'up' to sample/);
  });

  it('answers -32021 (HTTP 400) when the client did not declare what the upstream needs', async () => {
    const outcome = await call('confirm', {
      arguments: { action: 'blind' },
      capabilities: { sampling: {} },
    });
    expect(outcome.status).toBe(400);
    expect(outcome.error?.code).toBe(-32021);
    expect(outcome.json['error']).toMatchObject({
      data: { requiredCapabilities: { elicitation: {} } },
    });
    // The same through tool_call: the request needs what the client did not declare.
    const bridged = await call('tool_call', {
      arguments: { name: 'confirm', arguments: { action: 'blind' } },
      capabilities: { sampling: {} },
    });
    expect(bridged.status).toBe(400);
    expect(bridged.error?.code).toBe(-32021);
  });

  it('stops an upstream that asks forever after the round limit', async () => {
    let outcome = await call('forever');
    let rounds = 0;
    while (outcome.result['resultType'] === 'input_required' && rounds < 20) {
      rounds += 1;
      outcome = await call('forever', {
        requestState: outcome.result['requestState'] as string,
        inputResponses: { again: yes },
      });
    }
    expect(rounds).toBe(8);
    expect(outcome.result['isError']).toBe(true);
    expect(textOf(outcome.result)).toMatch(/kept asking for input/);
  });

  it('refuses to carry a huge upstream requestState', async () => {
    const outcome = await call('huge');
    expect(outcome.result['isError']).toBe(true);
    expect(textOf(outcome.result)).toMatch(/carries at most 16384/);
  });

  it("relays a prompt get's input_required the same way, its state good for that request only", async () => {
    const asked = questionOf(await call('briefing', { method: 'prompts/get' }));
    expect(Object.keys(asked.requests)).toEqual(['topic']);
    // A prompt's state is refused for a tool call.
    const crossed = await call('confirm', {
      arguments: { action: 'x' },
      requestState: asked.state,
      inputResponses: { topic: { action: 'accept', content: { topic: 'owls' } } },
    });
    expect(crossed.error?.code).toBe(-32602);
    expect(crossed.error?.message).toMatch(/issued for another request/);
    const again = questionOf(await call('briefing', { method: 'prompts/get' }));
    const done = await call('briefing', {
      method: 'prompts/get',
      requestState: again.state,
      inputResponses: { topic: { action: 'accept', content: { topic: 'owls' } } },
    });
    expect(done.result['resultType']).toBe('complete');
    expect(JSON.stringify(done.result['messages'])).toContain('Brief me on owls');
  });
});
