import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf } from '../__fixtures__/clients.js';
import { type FeatureClient, featureClient } from '../__fixtures__/feature-gateway.js';
import { everythingServer } from '../__fixtures__/servers.js';
import { parseGatewayConfig } from '../config/parse.js';
import { createUpstreamPool, type UpstreamPool } from '../upstream/pool.js';
import { createGatewayServer, type GatewayServer } from './server.js';

// The reference server-everything as a real stdio process behind the gateway: its
// resources, prompts and completions, and its requests during a call.
describe('a stdio upstream behind the gateway', () => {
  let pool: UpstreamPool;
  let gateway: GatewayServer;
  let heard: FeatureClient;

  beforeAll(async () => {
    const config = parseGatewayConfig({
      mcpServers: { everything: { ...everythingServer(), sampling: 'allow' } },
      toolSearch: { enabled: 'off' },
    });
    pool = createUpstreamPool(config, { reconnect: false });
    await pool.start();
    gateway = createGatewayServer({ pool, config });
    heard = await featureClient(gateway);
  }, 60_000);
  afterAll(async () => {
    await heard?.client.close();
    await gateway?.close();
    await pool?.close();
  });

  it('lists and reads its resources and templates', async () => {
    const { resources } = await heard.client.listResources();
    const architecture = resources.find((resource) => resource.name === 'architecture.md');
    expect(architecture).toBeDefined();
    const read = await heard.client.readResource({ uri: architecture!.uri });
    expect(read.contents[0]?.uri).toBe(architecture!.uri);
    const { resourceTemplates } = await heard.client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toContain(
      'demo://resource/dynamic/text/{resourceId}',
    );
    const dynamic = await heard.client.readResource({ uri: 'demo://resource/dynamic/text/3' });
    expect(dynamic.contents[0]?.uri).toBe('demo://resource/dynamic/text/3');
  });

  it('lists and gets its prompts, and completes their arguments', async () => {
    const { prompts } = await heard.client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(
      expect.arrayContaining(['simple-prompt', 'args-prompt', 'completable-prompt']),
    );
    const simple = await heard.client.getPrompt({ name: 'simple-prompt' });
    expect(simple.messages.length).toBeGreaterThan(0);
    const completion = await heard.client.complete({
      ref: { type: 'ref/prompt', name: 'completable-prompt' },
      argument: { name: 'department', value: 'E' },
    });
    expect(completion.completion.values).toContain('Engineering');
  });

  it('relays its sampling, elicitation and roots requests to the client of the call', async () => {
    const call = async (name: string, args: Record<string, unknown> = {}) =>
      textOf((await heard.client.callTool({ name, arguments: args })) as CallToolResult);
    expect(await call('trigger-sampling-request', { prompt: 'hi', maxTokens: 5 })).toContain(
      'sure',
    );
    expect(await call('trigger-elicitation-request')).toContain('Ada');
    expect(await call('get-roots-list')).toContain('file:///work');
    expect(heard.asked.map((asked) => asked.method)).toEqual([
      'sampling/createMessage',
      'elicitation/create',
    ]);
  });
});
