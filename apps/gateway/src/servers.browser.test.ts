import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadGatewayConfig } from '@tool-search/mcp/config';
import { type StartedGateway, startGateway } from '@tool-search/mcp-http';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONSOLE_ASSETS,
  launchChromium,
  plainClient,
  signIn,
  textOf,
} from './__fixtures__/console.js';

const GATEWAY_TOKEN = 'servers-page-gateway-token-01234';
const AGENT_TOKEN = 'servers-page-agent-token-0123456';
const SECRET = 'servers-page-secret-0123456789ab';
/** The added server's name in the config: markup, which the page must show as text. */
const MARKUP_NAME = `<img src=x onerror="alert('name')">`;

/** An upstream whose stderr carries markup, terminal escapes and its secret. */
const NOISY_SERVER = fileURLToPath(
  new URL('../../../packages/mcp-http/src/__fixtures__/noisy-server.mjs', import.meta.url),
);

const noisy = (prefix: string) => ({
  command: process.execPath,
  args: [NOISY_SERVER],
  env: { NOISY_PREFIX: prefix, NOISY_SECRET: SECRET },
});

describe('the Servers page of the console, in Chromium', () => {
  let folder: string;
  let configPath: string;
  let gateway: StartedGateway;
  let browser: Browser;
  let page: Page;
  let consoleUrl: string;
  const dialogs: string[] = [];
  const writeConfig = (servers: Record<string, unknown>) =>
    writeFileSync(
      configPath,
      JSON.stringify({
        mcpServers: servers,
        profiles: { agent: { token: AGENT_TOKEN } },
        console: { enabled: true },
      }),
    );

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'tool-search-servers-page-'));
    configPath = join(folder, 'gateway.json');
    writeConfig({ first: noisy('first') });
    gateway = await startGateway({
      config: await loadGatewayConfig(configPath),
      loadConfig: () => loadGatewayConfig(configPath),
      http: { port: 0, token: GATEWAY_TOKEN },
      console: { assetsDirectory: CONSOLE_ASSETS },
    });
    await gateway.ready();
    consoleUrl = new URL('/console/', gateway.url).href;
    browser = await launchChromium();
    page = await (await browser.newContext()).newPage();
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await signIn(page, consoleUrl, GATEWAY_TOKEN);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('reloads a config that adds a server while a session keeps working', async () => {
    const agent = await plainClient(gateway.url!, AGENT_TOKEN);
    expect(textOf(await agent.call('first_echo', { message: 'before' }))).toBe('echo: before');
    writeConfig({ first: noisy('first'), [MARKUP_NAME]: noisy('second') });
    await page.goto(`${consoleUrl}#servers`);
    await page.getByRole('button', { name: 'Show what a reload changes' }).click();
    const result = page.getByRole('region', { name: 'Reload result' });
    await expect(result.textContent()).resolves.toContain(`Servers added: ${MARKUP_NAME}`);
    await expect(result.textContent()).resolves.toContain('nothing applied');
    await page.getByRole('button', { name: 'Reload the config' }).click();
    await page.getByText('Applied:').waitFor();
    await page.getByRole('button', { name: `Restart ${MARKUP_NAME}` }).waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: `Output of ${MARKUP_NAME}` }).click();
    await page.getByRole('heading', { name: `Recent output of ${MARKUP_NAME}` }).waitFor();
    expect(await page.locator('main img').count()).toBe(0);
    // The session opened before the reload calls the new server's tool and the old one's.
    expect(textOf(await agent.call('second_echo', { message: 'new' }))).toBe('echo: new');
    expect(textOf(await agent.call('first_echo', { message: 'after' }))).toBe('echo: after');
    await agent.client.close();
  });

  it('shows a server’s output as text: no markup runs, escapes are shown, the secret is not', async () => {
    await page.goto(`${consoleUrl}#servers`);
    await page.getByRole('button', { name: 'Output of first' }).click();
    const output = page.getByRole('region', { name: 'Server output' });
    await output.locator('pre').waitFor();
    const text = (await output.locator('pre').textContent()) ?? '';
    expect(text).toContain('<img src=x onerror=');
    expect(text).toContain('\\x1b[2J');
    expect(text).not.toContain(SECRET);
    expect(
      await page.locator('#server-output img, #server-output b, #server-output script').count(),
    ).toBe(0);
    expect(dialogs).toEqual([]);
  });

  it('restarts a healthy server from its button', async () => {
    const agent = await plainClient(gateway.url!, AGENT_TOKEN);
    const before = textOf(await agent.call('first_pid'));
    await page.goto(`${consoleUrl}#servers`);
    await page.getByRole('button', { name: 'Restart first' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Restarted first.' })
      .waitFor({ timeout: 20_000 });
    expect(textOf(await agent.call('first_pid'))).not.toBe(before);
    await agent.client.close();
  });

  it('says why a config that does not parse changed nothing', async () => {
    writeFileSync(configPath, '{ "mcpServers": ');
    await page.goto(`${consoleUrl}#servers`);
    await page.getByRole('button', { name: 'Reload the config' }).click();
    const alert = page.getByRole('alert');
    await expect(alert.textContent()).resolves.toMatch(/nothing changed/);
    expect(gateway.pool.status().map((server) => server.name)).toEqual(['first', MARKUP_NAME]);
    expect(dialogs).toEqual([]);
  });
});
