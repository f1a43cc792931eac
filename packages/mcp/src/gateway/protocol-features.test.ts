import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf, until } from '../__fixtures__/clients.js';
import {
  type FeatureGateway,
  featureClient,
  startFeatureGateway,
} from '../__fixtures__/feature-gateway.js';

const errorOf = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(McpError);
  const { code, message } = error as McpError;
  return { code, message: message.replaceAll(/\S+:\/\/\S+/g, '<uri>') };
};

describe('the gateway carries resources, prompts, completions and logging', () => {
  let setup: FeatureGateway;

  beforeAll(async () => {
    setup = await startFeatureGateway({
      config: {
        guardrails: { resources: { deny: ['beta/beta://items/*'] }, prompts: { deny: [] } },
      },
    });
  });
  afterAll(async () => {
    await setup?.close();
  });

  it('declares what the servers in scope offer', async () => {
    const { client } = await featureClient(setup.gateway);
    expect(client.getServerCapabilities()).toMatchObject({
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      completions: {},
      logging: {},
    });
    await client.close();
  });

  it('merges resources in config order: a URI two servers list is served by the first', async () => {
    const { client } = await featureClient(setup.gateway);
    const uris = (await client.listResources()).resources.map((resource) => resource.uri);
    expect(uris).toEqual(['shared://one', 'alpha://own', 'beta://own']);
    const shared = await client.readResource({ uri: 'shared://one' });
    expect(shared.contents[0]).toMatchObject({ text: 'shared from alpha' });
    expect((await client.readResource({ uri: 'beta://own' })).contents[0]).toMatchObject({
      text: 'own of beta',
    });
    await client.close();
  });

  it('routes a URI that no server lists to the server whose template matches it', async () => {
    const { client } = await featureClient(setup.gateway);
    const templates = (await client.listResourceTemplates()).resourceTemplates.map(
      (t) => t.uriTemplate,
    );
    expect(templates).toEqual(['alpha://items/{id}']);
    const item = await client.readResource({ uri: 'alpha://items/7' });
    expect(item.contents[0]).toMatchObject({ text: 'item 7 of alpha' });
    await client.close();
  });

  it('answers an out-of-scope or denied URI exactly as an unknown one', async () => {
    const scoped = await featureClient(setup.gateway, { profile: 'alphaOnly' });
    const unknown = await errorOf(scoped.client.readResource({ uri: 'nowhere://x' }));
    expect(await errorOf(scoped.client.readResource({ uri: 'beta://own' }))).toEqual(unknown);
    expect((await scoped.client.listResources()).resources.map((r) => r.uri)).toEqual([
      'shared://one',
      'alpha://own',
    ]);
    const all = await featureClient(setup.gateway);
    const unknownToAll = await errorOf(all.client.readResource({ uri: 'nowhere://x' }));
    expect(await errorOf(all.client.readResource({ uri: 'beta://items/1' }))).toEqual(unknownToAll);
    await scoped.client.close();
    await all.client.close();
  });

  it('names colliding prompts as tools are, and gets each from its own server', async () => {
    const { client } = await featureClient(setup.gateway);
    const names = (await client.listPrompts()).prompts.map((prompt) => prompt.name);
    expect(names).toEqual(['alpha_review', 'beta_review']);
    const got = await client.getPrompt({ name: 'beta_review', arguments: { topic: 'the plan' } });
    expect(got.messages[0]?.content).toMatchObject({ text: 'beta reviews the plan' });
    const scoped = await featureClient(setup.gateway, { profile: 'alphaOnly' });
    expect((await scoped.client.listPrompts()).prompts.map((p) => p.name)).toEqual([
      'alpha_review',
    ]);
    const unknown = await errorOf(scoped.client.getPrompt({ name: 'nope' }));
    expect((await errorOf(scoped.client.getPrompt({ name: 'beta_review' }))).code).toBe(
      unknown.code,
    );
    await client.close();
    await scoped.client.close();
  });

  it('routes completions by their ref to the owner', async () => {
    const { client } = await featureClient(setup.gateway);
    const completed = await client.complete({
      ref: { type: 'ref/resource', uri: 'alpha://items/{id}' },
      argument: { name: 'id', value: '1' },
    });
    expect(completed.completion.values).toEqual(['1', '10']);
    await client.close();
  });

  it("sends the client's _meta of a call on to the upstream (the progress token is the gateway's)", async () => {
    const { client } = await featureClient(setup.gateway);
    await client.callTool({
      name: 'alpha_meta',
      arguments: {},
      _meta: { 'example.com/trace': 'abc' },
    });
    expect(setup.alpha.metas.at(-1)).toMatchObject({ 'example.com/trace': 'abc' });
    await client.close();
  });

  it('gives the client of a call its log lines, named after the server', async () => {
    const heard = await featureClient(setup.gateway);
    const result = await heard.client.callTool({ name: 'alpha_log', arguments: { count: 3 } });
    expect(textOf(result as never)).toBe('logged');
    await until(() => heard.logs.length === 3);
    expect(heard.logs.map((log) => [log.logger, log.data])).toEqual([
      ['alpha', 'line 0'],
      ['alpha', 'line 1'],
      ['alpha', 'line 2'],
    ]);
    await heard.client.close();
  });

  it('gives logs outside any call to the sessions in scope that set a level, at their level', async () => {
    const listening = await featureClient(setup.gateway);
    await listening.client.setLoggingLevel('warning');
    const scoped = await featureClient(setup.gateway, { profile: 'alphaOnly' });
    await scoped.client.setLoggingLevel('debug');
    const silent = await featureClient(setup.gateway);
    await setup.beta.server().server.sendLoggingMessage({ level: 'info', data: 'quiet' });
    await setup.beta.server().server.sendLoggingMessage({ level: 'error', data: 'loud' });
    await until(() => listening.logs.length === 1);
    expect(listening.logs[0]).toMatchObject({ level: 'error', logger: 'beta', data: 'loud' });
    expect(scoped.logs).toEqual([]);
    expect(silent.logs).toEqual([]);
    for (const heard of [listening, scoped, silent]) await heard.client.close();
  });

  it('subscribes upstream once, and tells only the sessions that subscribed', async () => {
    const first = await featureClient(setup.gateway);
    const second = await featureClient(setup.gateway);
    const other = await featureClient(setup.gateway);
    await first.client.subscribeResource({ uri: 'alpha://own' });
    await second.client.subscribeResource({ uri: 'alpha://own' });
    expect(setup.alpha.subscribed.filter((uri) => uri === 'alpha://own')).toHaveLength(1);
    await setup.alpha.server().server.sendResourceUpdated({ uri: 'alpha://own' });
    await until(() => first.updated.length === 1 && second.updated.length === 1);
    expect(other.updated).toEqual([]);
    await first.client.unsubscribeResource({ uri: 'alpha://own' });
    expect(setup.alpha.unsubscribed).toEqual([]);
    await second.client.unsubscribeResource({ uri: 'alpha://own' });
    expect(setup.alpha.unsubscribed).toEqual(['alpha://own']);
    for (const heard of [first, second, other]) await heard.client.close();
  });

  it('writes resource reads and prompt gets to the activity feed', async () => {
    const { client } = await featureClient(setup.gateway);
    await client.readResource({ uri: 'alpha://own' });
    await client.getPrompt({ name: 'alpha_review', arguments: { topic: 'x' } });
    expect(setup.activity).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'resource', name: 'alpha://own', status: 'ok' }),
        expect.objectContaining({ kind: 'prompt', name: 'alpha_review', status: 'ok' }),
      ]),
    );
    await client.close();
  });
});
