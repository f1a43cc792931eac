import { randomBytes } from 'node:crypto';
import type { InputRequests } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../store/memory-store.js';
import type { RelayRecord, SamplingPolicy } from '../upstream/features/relay.js';
import type { UpstreamFeatures } from '../upstream/features/upstream-features.js';
import { UpstreamInputDeferred } from '../upstream/input-required.js';
import {
  clientInputKey,
  isRelayState,
  openModernRelay,
  redeemRelayState,
  UPSTREAM_INPUT_PREFIX,
} from './modern-relay.js';
import { signState } from './signed-state.js';

const key = randomBytes(32);

/** The two relay methods of the pool's features this unit reads: a server's policy and the records. */
function policyOf(sampling: SamplingPolicy, held = false) {
  const records: RelayRecord[] = [];
  const features = {
    relayPolicy: () => ({ sampling, held }),
    recordRelay: (record: RelayRecord) => records.push(record),
  } as unknown as UpstreamFeatures;
  return { features, records };
}

const sampling = {
  method: 'sampling/createMessage',
  params: { messages: [], maxTokens: 5 },
} as unknown as InputRequests[string];
const context = {
  server: 'up',
  tool: 'sample',
  upstreamName: 'sample',
  arguments: { a: 1 },
  round: 1,
  signal: new AbortController().signal,
};

function relayFor(features: UpstreamFeatures, capabilities: Record<string, unknown>) {
  return openModernRelay({
    principal: 'alice',
    key,
    store: createMemoryStore(),
    features,
    capabilities,
    timeoutMs: 60_000,
    sessionId: 'stateless:alice',
  });
}

describe('the relay of an upstream question to a 2026 client', () => {
  it("keeps keys apart from the gateway's own, without two keys meeting", () => {
    expect(clientInputKey('user_name')).toBe('user_name');
    expect(clientInputKey('approval')).toBe(`${UPSTREAM_INPUT_PREFIX}approval`);
    expect(clientInputKey('sampling-consent')).toBe(`${UPSTREAM_INPUT_PREFIX}sampling-consent`);
    expect(clientInputKey('upstream:approval')).toBe('upstream:upstream:approval');
    const keys = ['approval', 'upstream:approval', 'upstream:upstream:approval', 'x', 'upstream:x'];
    expect(new Set(keys.map(clientInputKey)).size).toBe(keys.length);
  });

  it('refuses sampling by a server the policy denies, or one that is held, and records it', async () => {
    for (const [policy, held, reason] of [
      ['deny', false, /policy denies sampling/],
      ['allow', true, /held for review/],
    ] as const) {
      const { features, records } = policyOf(policy, held);
      const relay = relayFor(features, { sampling: {}, elicitation: {} });
      await expect(relay.onInputRequired({ q: sampling }, context)).rejects.toThrow(reason);
      expect(relay.question()).toBeUndefined();
      expect(records).toEqual([expect.objectContaining({ server: 'up', status: 'denied' })]);
    }
  });

  it('refuses what the client did not declare, and passes on what it did', async () => {
    const { features } = policyOf('allow');
    const blind = relayFor(features, { elicitation: {} });
    await expect(blind.onInputRequired({ q: sampling }, context)).rejects.toThrow(
      /did not declare/,
    );
    const able = relayFor(features, { sampling: {} });
    await expect(able.onInputRequired({ q: sampling }, context)).rejects.toBeInstanceOf(
      UpstreamInputDeferred,
    );
    expect(Object.keys(able.question()?.inputRequests ?? {})).toEqual(['q']);
    expect(able.meta).toEqual({ 'io.modelcontextprotocol/clientCapabilities': { sampling: {} } });
  });

  it('does not hand out a state it would not read back (questions held for consent too large)', async () => {
    const { features } = policyOf('ask');
    const relay = relayFor(features, { sampling: {}, elicitation: {} });
    const huge = {
      method: 'sampling/createMessage',
      params: {
        messages: [{ role: 'user', content: { type: 'text', text: 'x'.repeat(70_000) } }],
        maxTokens: 5,
      },
    } as unknown as InputRequests[string];
    await expect(relay.onInputRequired({ q: huge }, context)).rejects.toThrow(
      /more than the gateway carries/,
    );
    expect(relay.question()).toBeUndefined();
  });

  it("tells a relay state from an approval's, and redeems it once, for its principal only", async () => {
    const { features } = policyOf('allow');
    const relay = relayFor(features, { sampling: {} });
    await expect(
      relay.onInputRequired({ q: sampling }, { ...context, requestState: 'up-state' }),
    ).rejects.toBeInstanceOf(UpstreamInputDeferred);
    const raw = relay.question()?.requestState ?? '';
    expect(isRelayState(raw)).toBe(true);
    const approval = signState(key, 'approval', {
      v: 1,
      p: 'alice',
      e: Date.now() + 1000,
      t: 'x',
      h: 'y',
      n: 'z',
    });
    expect(isRelayState(approval)).toBe(false);
    const store = createMemoryStore();
    await expect(redeemRelayState({ key, principal: 'bob', store }, raw)).rejects.toThrow(
      /another client/,
    );
    const state = await redeemRelayState({ key, principal: 'alice', store }, raw);
    expect(state.u).toBe('up-state');
    await expect(redeemRelayState({ key, principal: 'alice', store }, raw)).rejects.toThrow(
      /already used/,
    );
    // An approval state presented as a relay's fails its signature (another purpose).
    await expect(redeemRelayState({ key, principal: 'alice', store }, approval)).rejects.toThrow(
      /not one this gateway issued/,
    );
  });
});
