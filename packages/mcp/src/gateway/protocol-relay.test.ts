import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { textOf, until } from '../__fixtures__/clients.js';
import {
  type FeatureGateway,
  featureClient,
  startFeatureGateway,
} from '../__fixtures__/feature-gateway.js';
import { MAX_LOGS_PER_WINDOW } from '../upstream/features/log-limiter.js';
import { relayServerRequest } from '../upstream/features/relay.js';
import { MAX_SUBSCRIPTIONS_PER_SESSION } from './subscriptions.js';

const call = async (heard: Awaited<ReturnType<typeof featureClient>>, name: string) =>
  textOf((await heard.client.callTool({ name, arguments: {} })) as CallToolResult);

describe('the relay of server requests to the client of the call', () => {
  let setup: FeatureGateway | undefined;
  afterEach(async () => {
    await setup?.close();
    setup = undefined;
  });

  it('relays sampling of a server the config allows, and records it', async () => {
    setup = await startFeatureGateway({ servers: { alpha: { sampling: 'allow' } } });
    const heard = await featureClient(setup.gateway);
    expect(await call(heard, 'alpha_sample')).toBe('sampled: {"type":"text","text":"sure"}');
    expect(heard.asked.map((asked) => asked.method)).toEqual(['sampling/createMessage']);
    expect(setup.activity).toContainEqual(
      expect.objectContaining({ kind: 'sampling', name: 'sampling/createMessage', status: 'ok' }),
    );
  });

  it('asks the user first by default, and samples only on a yes', async () => {
    setup = await startFeatureGateway();
    const yes = await featureClient(setup.gateway);
    expect(await call(yes, 'alpha_sample')).toMatch(/^sampled/);
    expect(yes.asked.map((asked) => asked.method)).toEqual([
      'elicitation/create',
      'sampling/createMessage',
    ]);
    const no = await featureClient(setup.gateway, { elicitAllow: false });
    expect(await call(no, 'alpha_sample')).toMatch(
      /^refused: .*did not allow server 'alpha' to sample/,
    );
    expect(no.asked.map((asked) => asked.method)).toEqual(['elicitation/create']);
  });

  it('refuses sampling the config denies, and one the client does not support, without asking', async () => {
    setup = await startFeatureGateway({ servers: { alpha: { sampling: 'deny' } } });
    const heard = await featureClient(setup.gateway);
    expect(await call(heard, 'alpha_sample')).toMatch(/policy denies sampling to server 'alpha'/);
    expect(heard.asked).toEqual([]);
    const bare = await featureClient(setup.gateway, { bare: true });
    expect(await call(bare, 'beta_sample')).toMatch(/does not support sampling\/createMessage/);
  });

  it('relays elicitation and roots to the client of the call', async () => {
    setup = await startFeatureGateway();
    const heard = await featureClient(setup.gateway);
    expect(await call(heard, 'alpha_elicit')).toBe('elicited: accept {"name":"Ada","allow":true}');
    expect(await call(heard, 'alpha_roots')).toBe('roots: file:///work');
    const bare = await featureClient(setup.gateway, { bare: true });
    expect(await call(bare, 'alpha_roots')).toMatch(/^refused: .*does not support roots\/list/);
  });

  it("never sends a request made during another session's call to the wrong client", async () => {
    setup = await startFeatureGateway({ servers: { alpha: { sampling: 'allow' } } });
    const waiting = await featureClient(setup.gateway);
    const sampling = await featureClient(setup.gateway);
    const pending = waiting.client.callTool({ name: 'alpha_wait', arguments: {} });
    await until(() => setup!.alpha.waiting() === 1);
    // Two calls in flight on the shared connection: the request cannot be attributed.
    expect(await call(sampling, 'alpha_sample')).toMatch(
      /cannot attribute sampling\/createMessage to one call: 2 calls/,
    );
    expect(waiting.asked).toEqual([]);
    expect(sampling.asked).toEqual([]);
    setup.alpha.release();
    await pending;
  });

  it('never lets a server with held tools sample', async () => {
    const records: unknown[] = [];
    const relay = {
      sessionId: 's',
      supports: () => true,
      request: async () => ({ role: 'assistant' }),
      log: () => {},
      confirm: async () => true,
    };
    const attempt = relayServerRequest({
      server: 'held',
      method: 'sampling/createMessage',
      params: {},
      signal: new AbortController().signal,
      inFlight: [relay],
      sampling: 'allow',
      held: true,
      record: (record) => records.push(record),
    });
    await expect(attempt).rejects.toThrow(/held for review: it may not sample/);
    expect(records).toEqual([expect.objectContaining({ status: 'denied', sessionId: 's' })]);
    const cannotAsk = relayServerRequest({
      server: 'asks',
      method: 'sampling/createMessage',
      params: {},
      signal: new AbortController().signal,
      inFlight: [{ ...relay, supports: (method) => method === 'sampling/createMessage' }],
      sampling: 'ask',
      held: false,
      record: (record) => records.push(record),
    });
    await expect(cannotAsk).rejects.toThrow(/cannot be asked \(it does not support elicitation\)/);
  });
});

describe('hostile upstreams and clients', () => {
  let setup: FeatureGateway | undefined;
  afterEach(async () => {
    await setup?.close();
    setup = undefined;
  });

  it('passes a flood of log lines at a bounded rate and says how many it dropped', async () => {
    setup = await startFeatureGateway();
    const heard = await featureClient(setup.gateway);
    await heard.client.callTool({
      name: 'alpha_log',
      arguments: { count: MAX_LOGS_PER_WINDOW * 3 },
    });
    await until(() => heard.logs.length === MAX_LOGS_PER_WINDOW);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(heard.logs).toHaveLength(MAX_LOGS_PER_WINDOW);
  });

  it('caps the subscriptions of one session and subscribes upstream once per URI', async () => {
    setup = await startFeatureGateway();
    const heard = await featureClient(setup.gateway);
    const results = [];
    for (let index = 0; index < MAX_SUBSCRIPTIONS_PER_SESSION + 5; index += 1) {
      results.push(
        await heard.client.subscribeResource({ uri: `alpha://items/${index}` }).then(
          () => 'ok',
          (error: Error) => error.message,
        ),
      );
    }
    expect(results.filter((result) => result === 'ok')).toHaveLength(MAX_SUBSCRIPTIONS_PER_SESSION);
    expect(results.at(-1)).toMatch(/holds 256 resource subscriptions/);
    expect(setup.alpha.subscribed).toHaveLength(MAX_SUBSCRIPTIONS_PER_SESSION);
    await heard.client.close();
    await until(() => setup!.alpha.unsubscribed.length === MAX_SUBSCRIPTIONS_PER_SESSION);
  });

  it('holds back prompts and resources the review has not accepted, as it holds tools', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'feature-review-'));
    setup = await startFeatureGateway({
      config: { review: { file: join(folder, 'review.json'), hold: 'new-and-changed' } },
    });
    const heard = await featureClient(setup.gateway);
    expect((await heard.client.listPrompts()).prompts).toEqual([]);
    expect((await heard.client.listResources()).resources).toEqual([]);
    expect(setup.pool.features?.get('alpha')?.held.map((held) => held.name)).toContain(
      'prompt:review',
    );
    expect(setup.pool.fingerprints().map((entry) => entry.name)).toContain('resource:alpha://own');
    await rm(folder, { recursive: true, force: true });
  });

  it('subscribes again upstream when the server comes back after a crash', async () => {
    setup = await startFeatureGateway({ reconnect: true });
    const heard = await featureClient(setup.gateway);
    await heard.client.subscribeResource({ uri: 'alpha://own' });
    const before = setup.alpha.server();
    await before.close();
    await until(() => setup!.alpha.server() !== before && setup!.alpha.subscribed.length === 2);
    expect(setup.alpha.subscribed).toEqual(['alpha://own', 'alpha://own']);
    await setup.alpha.server().server.sendResourceUpdated({ uri: 'alpha://own' });
    await until(() => heard.updated.length === 1);
  });

  it('reports a prompt whose text speaks to the model, and cuts nothing else', async () => {
    setup = await startFeatureGateway({ injected: true });
    const findings = setup.pool.features?.get('beta')?.findings ?? [];
    expect(findings).toEqual([
      {
        kind: 'prompt',
        name: 'helpful',
        patterns: expect.arrayContaining(['ignore-instructions', 'hidden-tag']),
      },
    ]);
    expect(setup.pool.features?.get('alpha')?.findings).toEqual([]);
  });
});

describe('what an upstream asks during a call of a program', () => {
  let setup: FeatureGateway | undefined;
  afterEach(async () => {
    await setup?.close();
    setup = undefined;
  });

  const programOf = async (heard: Awaited<ReturnType<typeof featureClient>>, source: string) =>
    JSON.parse(
      textOf(
        (await heard.client.callTool({
          name: 'tool_program',
          arguments: { source },
        })) as CallToolResult,
      ),
    ) as { status: string; result?: unknown };

  it("reaches the client of the tool_program call, on that call's stream", async () => {
    setup = await startFeatureGateway({
      config: { programs: { enabled: true, allow: ['alpha_*'] } },
    });
    const heard = await featureClient(setup.gateway);
    const program = await programOf(
      heard,
      `return [await tools.call('alpha_elicit', {}), await tools.call('alpha_roots', {})]`,
    );
    expect(program.status).toBe('completed');
    expect(JSON.stringify(program.result)).toContain('elicited: accept');
    expect(JSON.stringify(program.result)).toContain('roots: file:///work');
    expect(heard.asked.map((asked) => asked.method)).toEqual(['elicitation/create']);
    expect(setup.activity).toContainEqual(
      expect.objectContaining({ kind: 'elicitation', name: 'elicitation/create', status: 'ok' }),
    );
  });

  it('is refused with the reason when the client of the program cannot be asked', async () => {
    setup = await startFeatureGateway({
      config: { programs: { enabled: true, allow: ['alpha_*'] } },
    });
    const bare = await featureClient(setup.gateway, { bare: true });
    const program = await programOf(bare, `return await tools.call('alpha_roots', {})`);
    expect(JSON.stringify(program)).toMatch(/does not support roots\/list/);
    expect(bare.asked).toEqual([]);
  });
});
