import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type FeatureGateway,
  featureClient,
  startFeatureGateway,
} from '../__fixtures__/feature-gateway.js';
import { parseGatewayConfig } from '../config/parse.js';

describe('a reload of the resource and prompt rules', () => {
  let setup: FeatureGateway | undefined;
  afterEach(async () => {
    await setup?.close();
    setup = undefined;
  });

  it('reaches a session opened before it: its next read and get meet the new rules', async () => {
    setup = await startFeatureGateway();
    const { client } = await featureClient(setup.gateway);
    const read = () => client.readResource({ uri: 'beta://own' });
    expect((await read()).contents[0]).toMatchObject({ text: 'own of beta' });
    const prompts = (await client.listPrompts()).prompts.map((prompt) => prompt.name);
    expect(prompts.length).toBeGreaterThan(0);
    const unknown = await client.readResource({ uri: 'beta://nothing-here' }).catch((e) => e);

    await setup.gateway.applyConfig(
      parseGatewayConfig({
        mcpServers: { alpha: setup.alpha.entry, beta: setup.beta.entry },
        toolSearch: { enabled: 'off' },
        profiles: { alphaOnly: { enabledToolsets: ['mcp-alpha'] } },
        guardrails: { resources: { deny: ['beta/beta://own'] }, prompts: { deny: ['*/*'] } },
      }),
    );
    // Denied now looks exactly like unknown, on the same open session.
    const denied = await read().catch((e) => e);
    expect(denied).toBeInstanceOf(McpError);
    expect((denied as McpError).code).toBe((unknown as McpError).code);
    const afterPrompt = await client
      .getPrompt({ name: prompts[0]!, arguments: {} })
      .catch((e) => e);
    expect(afterPrompt).toBeInstanceOf(McpError);
    await client.close();
  });
});
