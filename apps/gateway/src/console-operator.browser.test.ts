// The console as an operator keeps it open: what it shows is right (a failed call is
// failed, times carry their zone), a waiting call cannot be missed, who let a call run,
// and a tool tried from the console, audited as the console's.
import { parseGatewayConfig } from '@tool-search/mcp/config';
import { type StartedGateway, startGateway } from '@tool-search/mcp-http';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONSOLE_ASSETS,
  CONSOLE_UPSTREAM,
  launchChromium,
  plainClient,
  signIn,
  textOf,
} from './__fixtures__/console.js';

const GATEWAY_TOKEN = 'operator-gateway-token-0123456789';
const OPERATOR_TOKEN = 'operator-ops-token-0123456789abc';
const AGENT_TOKEN = 'operator-agent-token-0123456789ab';

describe('the console an operator keeps open, in Chromium', () => {
  let gateway: StartedGateway;
  let browser: Browser;
  let page: Page;
  let consoleUrl: string;

  beforeAll(async () => {
    const config = parseGatewayConfig({
      mcpServers: { directory: { command: process.execPath, args: [CONSOLE_UPSTREAM] } },
      approval: { require: ['note_write'], via: 'console', timeoutMs: 60_000 },
      guardrails: { deny: { tools: ['forbidden_*'] } },
      profiles: {
        ops: { token: OPERATOR_TOKEN, operator: true },
        agent: { token: AGENT_TOKEN },
      },
      console: { enabled: true, callDetails: true },
    });
    gateway = await startGateway({
      config,
      http: { port: 0, token: GATEWAY_TOKEN },
      console: { assetsDirectory: CONSOLE_ASSETS },
    });
    await gateway.ready();
    consoleUrl = new URL('/console/', gateway.url).href;
    browser = await launchChromium();
    page = await (await browser.newContext({ timezoneId: 'Europe/Paris' })).newPage();
    await signIn(page, consoleUrl, OPERATOR_TOKEN);
  });

  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  it('shows a call the upstream answered as an error as failed, with the time and its zone', async () => {
    const agent = await plainClient(gateway.url!, AGENT_TOKEN);
    expect((await agent.call('lookup', { key: 'missing' })).isError).toBe(true);
    await page.goto(`${consoleUrl}#activity`);
    const row = page.locator('#activity-rows tr', { hasText: 'lookup' }).first();
    await row.waitFor();
    expect(await row.getAttribute('data-status')).toBe('tool_error');
    expect(await row.textContent()).toContain('no entry <b>missing</b>');
    // What it ran with and what came back, as text.
    await row.getByText('Arguments and result').click();
    expect(JSON.parse((await row.locator('[data-ran-with]').textContent()) ?? '')).toEqual({
      key: 'missing',
    });
    expect(await row.locator('[data-result]').textContent()).toBe('no entry <b>missing</b>');
    expect(await page.locator('main b').count()).toBe(0);
    // The moment with its zone (Paris in winter), not a bare time.
    expect(await row.locator('time').textContent()).toMatch(/GMT\+1|CET/);
    await agent.client.close();
  });

  it('counts the waiting calls in the navigation and the tab title, on every page', async () => {
    await page.goto(`${consoleUrl}#tools`);
    const agent = await plainClient(gateway.url!, AGENT_TOKEN);
    const pending = agent.call('note_write', { text: 'count me' });
    await expect.poll(() => page.title(), { timeout: 10_000 }).toMatch(/^\(1\) Tools/);
    expect(await page.locator('nav [data-waiting]').textContent()).toBe('1');
    await page.goto(`${consoleUrl}#approvals`);
    const card = page.locator('article[data-approval]', { hasText: 'count me' });
    // The timeout is visible: when it is denied unanswered, and a countdown.
    expect(await card.textContent()).toContain('denied unanswered at');
    await card.getByRole('button', { name: 'Allow once: note_write' }).click();
    expect(textOf(await pending)).toBe('noted count me');
    await expect.poll(() => page.title(), { timeout: 10_000 }).toBe('Approvals · gateway console');
    // An empty inbox says so after the answer, and the answer's words stay on this page.
    await page.getByText('No call is waiting for approval.').waitFor();
    expect(await page.locator('#status').textContent()).toContain('Allowed');
    await page.goto(`${consoleUrl}#overview`);
    expect(await page.locator('#status').textContent()).toBe('');
    await agent.client.close();
  });

  it('shows who approved a call, when, and the wait apart from the latency', async () => {
    const agent = await plainClient(gateway.url!, AGENT_TOKEN);
    const pending = agent.call('note_write', { text: 'who let me' });
    await page.goto(`${consoleUrl}#approvals`);
    await page
      .locator('article[data-approval]', { hasText: 'who let me' })
      .getByRole('button', { name: 'Allow for the session: note_write' })
      .click();
    expect(textOf(await pending)).toBe('noted who let me');
    await page.goto(`${consoleUrl}#activity`);
    const row = page.locator('#activity-rows tr', { hasText: 'note_write' }).first();
    await row.waitFor();
    expect(await row.locator('[data-approval-by]').textContent()).toBe(
      'allowed for the session by profile ops',
    );
    expect(await row.locator('[data-approval-by] + div time').count()).toBe(1);
    expect(await row.textContent()).toContain('waiting for approval');
    await agent.client.close();
  });

  it('shows what applies to each tool, and filters them', async () => {
    await page.goto(`${consoleUrl}#tools`);
    const policy = (key: string) => page.locator(`[data-policy="${key}"]`).textContent();
    await expect.poll(() => policy('directory/note_write')).toContain('needs approval');
    expect(await policy('directory/lookup')).toContain('says read-only');
    await page.getByLabel('Filter tools').fill('needs approval');
    await expect
      .poll(() => page.locator('tbody tr:not([hidden]) [data-tool]').allTextContents())
      .toEqual([expect.stringContaining('note_write')]);
    await page.getByLabel('Filter tools').fill('');
    // The operator's off switch: the tool is refused for the agent until switched on.
    const agent = await plainClient(gateway.url!, AGENT_TOKEN);
    await page.getByRole('button', { name: 'Switch off directory/lookup' }).click();
    await expect.poll(() => policy('directory/lookup')).toContain('switched off');
    await expect
      .poll(async () => textOf(await agent.call('lookup', { key: 'x' })), { timeout: 10_000 })
      .toMatch(/switched 'lookup' off/);
    await page.getByRole('button', { name: 'Switch on directory/lookup' }).click();
    await expect
      .poll(async () => textOf(await agent.call('lookup', { key: 'x' })), { timeout: 10_000 })
      .toBe('found <i>x</i>');
    await agent.client.close();
  });

  it('tries a tool from its schema’s form, shows the result as text, and audits it as the console’s', async () => {
    await page.goto(`${consoleUrl}#tools`);
    const tool = page.locator('[data-tool="directory/lookup"]');
    await tool.locator('summary').click();
    const form = page.getByRole('form', { name: 'Try lookup' });
    await form.getByLabel(/^key/).fill('<img src=x onerror=alert(1)>');
    await form.getByLabel(/^limit/).fill('3');
    await form.getByRole('button', { name: 'Run lookup' }).click();
    const result = page.locator('[data-try-result="lookup"]');
    await result.waitFor();
    expect(await result.textContent()).toBe('found <i><img src=x onerror=alert(1)></i>');
    expect(await page.locator('main img, main i').count()).toBe(0);
    const entries = await gateway.store.readAudit({ count: 50 });
    expect(entries.map((entry) => entry.record).filter((r) => r?.via === 'console')).toEqual([
      expect.objectContaining({ tool: 'lookup', operator: 'profile:ops', status: 'ok' }),
    ]);
    // A failed try says so.
    await form.getByLabel(/^key/).fill('missing');
    await form.getByRole('button', { name: 'Run lookup' }).click();
    await expect
      .poll(() => page.locator('[data-try-status]').getAttribute('data-try-status'))
      .toBe('failed');
  });
});
