import { parseGatewayConfig } from '@tool-search/mcp/config';
import { type StartedGateway, startGateway } from '@tool-search/mcp-http';
import {
  freePort,
  startNginxBalancer,
  startRedis,
  type TestBalancer,
  type TestRedis,
} from '@tool-search/services';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONSOLE_ASSETS,
  HOSTILE_SERVER,
  launchChromium,
  plainClient,
  signIn,
  textOf,
} from './__fixtures__/console.js';

const GATEWAY_TOKEN = 'replicas-console-token-0123456789';
const AGENT_TOKEN = 'replicas-agent-token-0123456789ab';

describe('the operator console on two replicas behind a balancer', () => {
  let redis: TestRedis;
  let balancer: TestBalancer;
  const replicas: StartedGateway[] = [];
  let browser: Browser;

  beforeAll(async () => {
    redis = await startRedis({ appendOnly: false });
    const ports = [await freePort(), await freePort()];
    const balancerPort = await freePort();
    const config = parseGatewayConfig({
      mcpServers: { hostile: { command: process.execPath, args: [HOSTILE_SERVER] } },
      approval: { require: ['hostile_echo'], via: 'console', timeoutMs: 60_000 },
      profiles: { agent: { token: AGENT_TOKEN } },
      console: { enabled: true },
    });
    for (const port of ports) {
      const replica = await startGateway({
        config,
        store: redis.url,
        http: {
          port,
          token: GATEWAY_TOKEN,
          allowedHosts: [`127.0.0.1:${balancerPort}`, `127.0.0.1:${port}`],
        },
        console: { assetsDirectory: CONSOLE_ASSETS },
      });
      await replica.ready();
      replicas.push(replica);
    }
    balancer = await startNginxBalancer(balancerPort, ports);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await balancer?.dispose();
    await Promise.all(replicas.map((replica) => replica.close()));
    await redis?.dispose();
  });

  const consoleOf = (url: string) => new URL('/console/', url).href;
  const card = (page: Page, text: string) =>
    page.locator('article[data-approval]', { hasText: text });

  it('shows the approvals of both replicas on either console, and routes each answer to its call', async () => {
    const [first, second] = replicas as [StartedGateway, StartedGateway];
    const onFirst = await plainClient(first.url!, AGENT_TOKEN);
    const onSecond = await plainClient(second.url!, AGENT_TOKEN);
    const asked = [
      onFirst.call('hostile_echo', { message: 'asked on the first replica' }),
      onSecond.call('hostile_echo', { message: 'asked on the second replica' }),
    ] as const;
    // Signed in through the balancer: the sign-in holds on every replica of the config.
    const context = await browser.newContext();
    const viaBalancer = await context.newPage();
    await signIn(viaBalancer, consoleOf(balancer.url), GATEWAY_TOKEN);
    const pages: Page[] = [];
    for (const replica of [first, second]) {
      const page = await context.newPage();
      await page.goto(`${consoleOf(replica.url!)}#approvals`);
      await card(page, 'asked on the first replica').waitFor();
      await card(page, 'asked on the second replica').waitFor();
      pages.push(page);
    }
    // Each call is answered on the console of the other replica.
    await card(pages[1]!, 'asked on the first replica')
      .getByRole('button', { name: 'Allow once: hostile_echo' })
      .click();
    await card(pages[0]!, 'asked on the second replica')
      .getByRole('button', { name: 'Deny: hostile_echo' })
      .click();
    const [allowed, denied] = await Promise.all(asked);
    expect(textOf(allowed)).toBe('hostile echo: asked on the first replica');
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toContain('An operator denied the call');
    // The feed of either replica shows the calls of both (the shared audit trail).
    await pages[0]!.goto(`${consoleOf(first.url!)}#activity`);
    await expect
      .poll(() => pages[0]!.locator('#activity-rows tr', { hasText: 'hostile_echo' }).count())
      .toBe(2);
    await Promise.all([onFirst.client.close(), onSecond.client.close(), context.close()]);
  });
});
